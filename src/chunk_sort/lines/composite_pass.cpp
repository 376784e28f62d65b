#include "src/chunk_sort/lines/composite_pass.h"

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstring>
#include <utility>
#include <vector>

#include "src/chunk_sort/lines/composite_plan.h"
#include "src/core/stopwatch.h"
#include "src/keys/image_slot.h"
#include "src/keys/line_image.h"

namespace gsort {
namespace {

constexpr uint64_t kSampleLines = 65536;  // lines whose figures plan the composite first
constexpr uint64_t kWiderSample = 16;     // times as many, where a collated level's keys went unseen
__extension__ typedef unsigned __int128 Bits128;  // the composite as it is built (GCC's and Clang's)

// A level's slot of one line (image_slot.h); a collated level's is its
// key's bytes, ranked (collated_ranks.h), not its image (the head).
LevelSlot level_slot(const LineImageSpec& spec, const uint8_t* line, uint64_t len, uint64_t bytes, bool key_bytes) {
  return key_bytes ? LevelSlot::of_key_bytes(spec, line, len) : LevelSlot(spec, line, len, bytes);
}

// Adds line i's slots of levels [0, levels) to the figures, against
// `reference` (line 0's slot words).
void add_line(const std::vector<LineImageSpec>& specs, size_t levels, const LineSpan& lines, uint64_t i,
              const std::vector<uint64_t>& reference, std::vector<LevelFigures>& f) {
  for (size_t l = 0; l < levels; ++l) {
    const LevelSlot level = level_slot(specs[l], lines.line(i), lines.length(i), kSlotBytes, ranked_by_collation(specs[l]));
    const Slot slot = level.slot();
    LevelFigures& g = f[l];
    for (uint64_t w = 0; w < kSlotWords; ++w) g.varying[w] |= slot.w[w] ^ reference[l * kSlotWords + w];
    g.longest = std::max(g.longest, level.length());
    g.inexact |= level.inexact();
    g.unmirrored |= (slot.w[0] ^ sign_mirror(slot.w[0])) & kCountBytes;
    g.distinct.add(slot);
  }
}

// Line i's composite image, left-aligned in (hi, lo); false where the line
// does not fit the plan.
bool composite_entry(const std::vector<LineImageSpec>& specs, const Composite& c, const uint64_t* reference,
                     const LineSpan& lines, uint64_t i, WideEntry& entry) {
  Bits128 acc = 0;
  for (const LevelPlan& p : c.levels) {
    const uint64_t words = p.ranks ? kSlotWords : p.raw_bits > 0 ? (static_cast<uint64_t>(p.raw_bits) + 63) / 64 : p.words;
    const LevelSlot slot = level_slot(specs[p.level], lines.line(i), lines.length(i), 8 * words,
                                      p.ranks != nullptr && ranked_by_collation(specs[p.level]));
    if (p.exact && (slot.length() > p.longest || slot.inexact())) return false;
    if (p.raw_bits > 0) {  // whole words, then the top of the next
      for (int taken = 0, w = 0; taken < p.raw_bits; taken += 64, ++w) {
        const int bits = std::min(p.raw_bits - taken, 64);
        const uint64_t word = slot.word(static_cast<uint64_t>(w));
        acc = acc << bits | (bits == 64 ? word : word >> (64 - bits));
      }
      continue;
    }
    if (p.ranks) {
      const uint32_t rank = p.ranks->find(slot.slot());
      if (rank == FewSlots::kMissing) return false;
      acc = acc << p.rank_bits | rank >> p.rank_shift;
      continue;
    }
    const uint64_t* ref = reference + p.level * kSlotWords;
    for (uint64_t w = 0; w < p.words; ++w) {
      const uint64_t word = slot.word(w);
      if ((word ^ ref[w]) & p.constant[w]) return false;
      if (w == 0 && ((word ^ sign_mirror(word)) & p.mirrored) != 0) return false;
      acc = acc << p.take[w].bits() | p.take[w](word);
    }
  }
  acc <<= kCompositeBits - c.bits;  // c.bits never exceeds the 96
  entry = WideEntry{static_cast<uint64_t>(acc >> 32), static_cast<uint32_t>(acc), static_cast<uint32_t>(i)};
  return true;
}

// The figures of every step-th line, on the pool's threads.
std::vector<LevelFigures> figures_of(ThreadPool& pool, const std::vector<LineImageSpec>& specs, size_t levels,
                                     const LineSpan& lines, uint64_t step, const std::vector<uint64_t>& reference) {
  const uint64_t count = (lines.count + step - 1) / step;
  const size_t tasks = count < 4096 ? 1 : pool.balanced_task_count();
  std::vector<std::vector<LevelFigures>> found(tasks, empty_figures(specs, levels));
  pool.parallel_for(tasks, [&](size_t t) {
    for (uint64_t k = split_point(count, tasks, t), end = split_point(count, tasks, t + 1); k < end; ++k) {
      add_line(specs, levels, lines, k * step, reference, found[t]);
    }
  });
  // Merged in pairs, a round at a time: one thread adding every task's
  // distinct keys took 0.07-0.10 s of 1M sampled lines of 50,000 words
  // on the H100 host (64 tasks, 2026-12-06), a fifth of the plan.
  for (size_t width = 1; width < tasks; width *= 2) {
    pool.parallel_for((tasks + 2 * width - 1) / (2 * width), [&](size_t pair) {
      const size_t into = pair * 2 * width, from = into + width;
      if (from >= tasks) return;
      for (size_t l = 0; l < levels; ++l) found[into][l].add(found[from][l]);
    });
  }
  return std::move(found[0]);
}

// Pairs of the sample's lines (every step-th) whose images under plan c
// are equal: lines the refiner would take, as the sample sees them.
uint64_t sample_ties(ThreadPool& pool, const std::vector<LineImageSpec>& specs, const Composite& c,
                     const LineSpan& lines, uint64_t step, const std::vector<uint64_t>& reference) {
  const uint64_t count = (lines.count + step - 1) / step;
  const size_t tasks = count < 4096 ? 1 : pool.balanced_task_count();
  std::vector<std::vector<WideEntry>> found(tasks);
  pool.parallel_for(tasks, [&](size_t t) {
    for (uint64_t k = split_point(count, tasks, t), end = split_point(count, tasks, t + 1); k < end; ++k) {
      WideEntry e;
      if (composite_entry(specs, c, reference.data(), lines, k * step, e)) found[t].push_back(e);
    }
  });
  // Gathered and sorted on every thread: one thread's radix sort of 1M
  // entries took 0.06-0.09 s on the H100 host (2026-12-06), three of them
  // to a plan of 50,000 words.
  std::vector<size_t> at(tasks + 1, 0);
  for (size_t t = 0; t < tasks; ++t) at[t + 1] = at[t] + found[t].size();
  std::vector<WideEntry> all(at[tasks]), scratch(at[tasks]);
  pool.parallel_for(tasks, [&](size_t t) { std::copy(found[t].begin(), found[t].end(), all.begin() + at[t]); });
  sort_wide(pool, all.data(), scratch.data(), all.size());
  uint64_t ties = 0;
  for (size_t i = 1; i < all.size(); ++i) ties += same_bits(all[i], all[i - 1]);
  return ties;
}

// The lines of the chunk that tie under plan c, as the sample sees them:
// its tied pairs, one line in `step`, stand for step^2 times as many pairs
// among all lines (a pair is sampled when both its lines are), and a pair
// for two tied lines.
double tied_lines(ThreadPool& pool, const std::vector<LineImageSpec>& specs, const Composite& c, const LineSpan& lines,
                  uint64_t step, const std::vector<uint64_t>& reference) {
  const double scale = static_cast<double>(step);
  return 2 * static_cast<double>(sample_ties(pool, specs, c, lines, step, reference)) * scale * scale;
}

// Whether plan `other`, which costs more a line than `base`, is worth it:
// it leaves the refiner at least a byte's worth of varying bits fewer, and
// the sample's lines tie under `base` and less than half as often under it.
bool worth_its_cost(ThreadPool& pool, const std::vector<LineImageSpec>& specs, const std::vector<LevelFigures>& figures,
                    const Composite& base, const Composite& other, const LineSpan& lines, uint64_t step,
                    const std::vector<uint64_t>& reference) {
  if (untaken_bits(base, figures) - untaken_bits(other, figures) < 8) return false;
  const uint64_t base_ties = sample_ties(pool, specs, base, lines, step, reference);
  return base_ties != 0 && 2 * sample_ties(pool, specs, other, lines, step, reference) < base_ties;
}

// Text taken as it is, or squeezed to its varying bits (plan_level). The
// squeeze costs a fill more (a run of bits per byte to gather where the
// processor has no one instruction for it; every bit checked) and misses
// lines with a byte the sample did not show, so it is taken only where
// worth_its_cost: ten letters before a nine-digit number left it 16 bits
// and most of a word's lines tied; squeezed, 26 and hardly any.
Composite compose_text(ThreadPool& pool, const std::vector<LineImageSpec>& specs,
                       const std::vector<LevelFigures>& figures, const LineSpan& lines, uint64_t step,
                       const std::vector<uint64_t>& reference, bool* squeezed) {
  Composite raw = compose(specs, figures, false);
  Composite squeeze = compose(specs, figures, true);
  *squeezed = worth_its_cost(pool, specs, figures, raw, squeeze, lines, step, reference);
  return *squeezed ? squeeze : raw;
}

// The better of compose_text's plan and one that ranks a text level of
// more than kFewSlotsMost distinct keys (a lookup a line, and ranks sorted
// first), taken on the same terms as the squeeze (worth_its_cost): 50,000
// words of up to 22 bytes squeezed took the 96 bits and left a word's
// 1,300 lines (the last resort decides) to the refiner, 2.8 of the 3.2
// thread-s of the sort (C, 200 MB, dev, 2026-12-05); ranked, 16 bits and
// a line's number.
Composite compose_best(ThreadPool& pool, const std::vector<LineImageSpec>& specs,
                       const std::vector<LevelFigures>& figures, const LineSpan& lines, uint64_t step,
                       const std::vector<uint64_t>& reference, bool* squeezed, bool* ranked_many) {
  *ranked_many = false;
  Composite best = compose_text(pool, specs, figures, lines, step, reference, squeezed);
  bool many = false;
  for (size_t l = 0; l < figures.size(); ++l) {
    many |= !ranked_by_collation(specs[l]) && !figures[l].distinct.over() && figures[l].distinct.size() > kFewSlotsMost;
  }
  if (!many) return best;
  Composite ranked = compose(specs, figures, *squeezed, true);
  *ranked_many = worth_its_cost(pool, specs, figures, best, ranked, lines, step, reference);
  return *ranked_many ? ranked : best;
}

bool reaches_past_first(const TieStart& start) { return start.level > 0 || start.settled; }

// The plan without its last level where that is a collated key's heads
// after other levels (a whole line's last resort after a ranked name and a
// number), if the levels before it leave fewer than one line in 16 tied in
// the sample. Each head is a pass over the line's text through the
// collation's table, a sixth of the fill of -t, -k2,2 -k1,1n in
// en_US.UTF-8 (perf, dev, 2026-12-05), for the few lines the refiner
// orders by their heads anyway. Many tied lines (a few names and a few
// numbers) keep the heads: read here in memory order, not line by line.
Composite without_costly_heads(ThreadPool& pool, const std::vector<LineImageSpec>& specs, const Composite& c,
                               const LineSpan& lines, uint64_t step, const std::vector<uint64_t>& reference) {
  if (c.levels.size() < 2) return c;
  const LevelPlan& last = c.levels.back();
  if (!ranked_by_collation(specs[last.level]) || last.ranks != nullptr || last.raw_bits == 0) return c;
  Composite shorter = c;
  shorter.levels.pop_back();
  shorter.bits -= last.raw_bits;
  shorter.start = TieStart{0, static_cast<uint32_t>(last.level), false};
  return 16 * tied_lines(pool, specs, shorter, lines, step, reference) < static_cast<double>(lines.count) ? shorter : c;
}

// Line i's key at the level where its ties start, placed in its cache
// entry with image words `depth` and `depth + 1`; false where the key or
// its image is too long for the entry's 32-bit figures.
bool keep_tie_words(const LineImageSpec& image, uint64_t depth, const LineSpan& lines, uint64_t i, LineCache& entry) {
  const LineImageView v = view_line_image(image, lines.line(i), lines.length(i));
  const uint64_t length = line_image_length(image, v);
  entry = LineCache{{line_image_word(image, v, depth), line_image_word(image, v, depth + 1)},
                    static_cast<uint64_t>(v.key - lines.text), static_cast<uint32_t>(v.len),
                    static_cast<uint32_t>(length)};
  return v.len < kUnplaced && length < kUnplaced;
}

// Whether many lines will tie under plan c (an eighth of them or more),
// so that their tie words are worth keeping for every line as the fill
// reads it. Refining ties reads each tied line's key and then its bytes,
// anywhere in the chunk: 2 GB of -t, -k2,2 -k1,1n over 16 names and 1,000
// numbers (the last resort decides every line) took the H200's 16 threads
// 29 thread-s of ties; over 50,000 words, 20.5M lines tied in pairs and
// threes took 18.
bool many_lines_tie(ThreadPool& pool, const std::vector<LineImageSpec>& specs, const Composite& c,
                    const LineSpan& lines, uint64_t step, const std::vector<uint64_t>& reference) {
  // (A collated level's ties are settled by heads the refiner reads itself.)
  if (c.start.settled || !composable(specs[c.start.level]) || ranked_by_collation(specs[c.start.level])) return false;
  return 8 * tied_lines(pool, specs, c, lines, step, reference) >= static_cast<double>(lines.count);
}

// Every line's entry by the plan; the lines that do not fit it are left
// unwritten and listed (past kMisfitsMost, the fill stops: the plan is
// made again and every line filled again). With a cache, also every
// line's tie words (keep_tie_words); `*fits`: whether their figures fit
// the cache's 32 bits.
Misfits fill_entries(ThreadPool& pool, const std::vector<LineImageSpec>& specs, const Composite& c,
                     const LineSpan& lines, const std::vector<uint64_t>& reference, WideEntry* entries,
                     LineCache* cache, bool* fits) {
  const uint64_t n = lines.count;
  const size_t tasks = n < 4096 ? 1 : pool.balanced_task_count();
  std::vector<std::vector<uint64_t>> found(tasks);
  std::atomic<uint64_t> count{0};
  std::atomic<bool> all_fit{true};
  pool.parallel_for(tasks, [&](size_t t) {
    bool fit = true;
    for (uint64_t i = split_point(n, tasks, t), end = split_point(n, tasks, t + 1); i < end; ++i) {
      if ((i & 4095) == 0 && count.load(std::memory_order_relaxed) > kMisfitsMost) break;  // refilled anyway
      if (cache) fit &= keep_tie_words(specs[c.start.level], c.start.depth, lines, i, cache[i]);
      if (composite_entry(specs, c, reference.data(), lines, i, entries[i])) continue;
      if (count.fetch_add(1, std::memory_order_relaxed) >= kMisfitsMost) break;
      found[t].push_back(i);
    }
    if (!fit) all_fit.store(false, std::memory_order_relaxed);
  });
  *fits = all_fit.load();
  Misfits m;
  m.many = count.load() > kMisfitsMost;
  for (const std::vector<uint64_t>& f : found) m.lines.insert(m.lines.end(), f.begin(), f.end());
  return m;
}

// The plan widened by the lines that did not fit it (their figures
// added to the sample's: every line that fitted still fits), or, where
// they are many, made from every line, of the levels the old plan reached
// (the rest would cost a pass for nothing); its costly heads left out as
// the first plan's were (`step`: the sample's), or a name the sample
// missed would bring back a last resort's heads.
Composite widened(ThreadPool& pool, const std::vector<LineImageSpec>& specs, size_t levels, const LineSpan& lines,
                  uint64_t step, const std::vector<uint64_t>& reference, const Composite& old, const Misfits& misfits,
                  bool squeezed, bool ranked_many, std::vector<LevelFigures>& figures) {
  if (misfits.many) {
    const size_t reached = old.start.settled ? levels : std::min<size_t>(levels, old.start.level + 1);
    figures = figures_of(pool, specs, reached, lines, 1, reference);
  } else {
    for (uint64_t i : misfits.lines) add_line(specs, levels, lines, i, reference, figures);
  }
  settle_figures(specs, reference, figures);
  return without_costly_heads(pool, specs, compose(specs, figures, squeezed, ranked_many), lines, step, reference);
}

// Line 0's slot words of levels [0, levels), which the figures' varying
// bits are taken against.
std::vector<uint64_t> reference_words(const std::vector<LineImageSpec>& specs, size_t levels, const LineSpan& lines) {
  std::vector<uint64_t> reference(levels * kSlotWords);
  for (size_t l = 0; l < levels; ++l) {
    const Slot slot = level_slot(specs[l], lines.line(0), lines.length(0), kSlotBytes, ranked_by_collation(specs[l])).slot();
    std::copy(slot.w, slot.w + kSlotWords, reference.begin() + static_cast<std::ptrdiff_t>(l * kSlotWords));
  }
  return reference;
}

}  // namespace

std::optional<TieStart> composite_pass(ThreadPool& pool, const LineSpec& spec, const LineSpan& lines,
                                       WideEntry* entries, const std::function<LineCache*()>& tie_cache,
                                       CachedWords* cached, bool* replanned, bool* squeezed,
                                       const CompositeOffload& offload, bool* sorted, double* planned_s) {
  const Stopwatch planning;
  const auto planned = [&] { if (planned_s) *planned_s = planning.seconds(); };
  *replanned = false;
  *squeezed = false;
  *cached = CachedWords{};
  if (sorted) *sorted = false;
  const uint64_t n = lines.count;
  const std::vector<LineImageSpec> specs = spec.images();
  // A first key that is the line itself (a log line sorted whole) is
  // rarely shorter than the slot: the sample would say so for nothing.
  if (n == 0 || specs.size() < 2 || image_is_line_itself(specs[0]) || !composable(specs[0])) return {};
  const size_t levels = std::min<size_t>(specs.size(), kSlotLevels);
  const std::vector<uint64_t> reference = reference_words(specs, levels, lines);
  // Planned from a sample. Lines that do not fit the plan widen it and
  // every line is filled again (widened).
  uint64_t step = 0;
  std::vector<LevelFigures> figures;
  const auto sample_every = [&](uint64_t every) {
    step = every;
    figures = figures_of(pool, specs, levels, lines, step, reference);
    if (step > 1) drop_many_distinct(specs, (n + step - 1) / step, figures);
  };
  sample_every(std::max<uint64_t>(1, n / kSampleLines));
  if (step > 1 && keys_unseen(specs, (n + step - 1) / step, figures)) {
    sample_every(std::max<uint64_t>(1, n / (kWiderSample * kSampleLines)));
  }
  settle_figures(specs, reference, figures);
  bool ranked_many = false;
  Composite c = compose_best(pool, specs, figures, lines, step, reference, squeezed, &ranked_many);
  if (!reaches_past_first(c.start)) {  // planned, and not taken: the first pass fills instead
    planned();
    return {};
  }
  c = without_costly_heads(pool, specs, c, lines, step, reference);
  // The tie words are kept as the plan's start has them (a plan made again
  // keeps them again), where the CPU fills.
  const bool many = many_lines_tie(pool, specs, c, lines, step, reference);
  planned();
  // Off the CPU, filled and sorted at once; a plan widened once is handed
  // over again, and the CPU fills by a plan widened twice. Where many lines
  // tie, only at a level whose image is made from the key's bytes alone,
  // whose ties the GPU's sorter refines on the device (kernels/
  // tie_words.h); at others the refiner needs the words the CPU's fill
  // keeps. H200 host, 2 GB, -t, -k2,2 -k1,1n (2026-12-04): 16 names and
  // 1,000 numbers (the last resort decides) 2.37 s with the words kept,
  // 0.98 refined on the device.
  const bool hand_over = offload && sorted && (!many || image_made_from_bytes(specs[c.start.level]));
  std::optional<Misfits> away = hand_over ? offload(lines, specs, c, reference, entries) : std::nullopt;
  if (away && !away->none()) {
    *replanned = true;
    c = widened(pool, specs, levels, lines, step, reference, c, *away, *squeezed, ranked_many, figures);
    if (!reaches_past_first(c.start)) return {};
    away = offload(lines, specs, c, reference, entries);
  }
  if (away && away->none()) {
    *sorted = true;
    TieStart start = c.start;
    start.depth += away->words_refined;
    start.settled = start.settled || away->settled;
    return start;
  }
  LineCache* cache = many ? tie_cache() : nullptr;
  bool fits = false;
  const Misfits misfits = fill_entries(pool, specs, c, lines, reference, entries, cache, &fits);
  if (misfits.none()) {
    if (cache && fits) *cached = CachedWords{true, c.start.level, c.start.depth};
    return c.start;
  }
  *replanned = true;
  c = widened(pool, specs, levels, lines, step, reference, c, misfits, *squeezed, ranked_many, figures);  // as before: every line that fitted still fits
  if (!reaches_past_first(c.start)) return {};
  if (!fill_entries(pool, specs, c, lines, reference, entries, cache, &fits).none()) return {};  // cannot be: the plan only widened
  if (cache && fits) *cached = CachedWords{true, c.start.level, c.start.depth};
  return c.start;
}

}  // namespace gsort
