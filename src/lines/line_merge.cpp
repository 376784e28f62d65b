#include "src/lines/line_merge.h"

#include "src/merge/primitives/loser_tree.h"
#include "src/keys/line_image.h"

namespace gsort {

namespace {

constexpr size_t kMergeBatch = 1 << 16;  // most lines picked before they are copied

}  // namespace

MergeCount merge_lines(std::vector<std::unique_ptr<LineSource>>& sources, const LineComparator& compare,
                       LineWriter& out, ThreadPool& pool) {
  const LineImageSpec image = compare.spec().image();
  // The sources that have a line, and each one's cached word.
  std::vector<size_t> live;
  std::vector<uint64_t> word(sources.size(), 0);
  for (size_t s = 0; s < sources.size(); ++s) {
    if (sources[s]->advance()) live.push_back(s);
  }
  const auto load = [&](size_t s) { word[s] = line_image_word(image, sources[s]->line(), sources[s]->length(), 0); };
  for (size_t s : live) load(s);
  const auto less = [&](size_t i, size_t j) {
    const size_t a = live[i], b = live[j];
    if (word[a] != word[b]) return word[a] < word[b];
    const int d = compare.compare(sources[a]->line(), sources[a]->length(), sources[b]->line(), sources[b]->length());
    return d != 0 ? d < 0 : a < b;
  };
  LoserTree<decltype(less)> tree(live.size(), less);
  MergeCount count;
  std::vector<LineRef> batch;
  batch.reserve(kMergeBatch);
  const auto flush = [&] {
    out.append_lines(pool, batch.data(), batch.size());
    batch.clear();
  };
  while (!tree.empty()) {
    const size_t s = live[tree.winner()];
    LineSource& src = *sources[s];
    batch.push_back(LineRef{src.line(), src.length()});
    ++count.lines;
    count.bytes += src.length() + 1;
    bool more = src.advance_in_buffer();
    if (!more) {  // it must read: the lines picked from its buffer go first
      flush();
      more = src.advance();
    }
    if (batch.size() == kMergeBatch) flush();
    if (more) load(s);
    tree.advance(more);
  }
  flush();
  return count;
}

}  // namespace gsort
