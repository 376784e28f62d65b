#include "src/report/progress.h"

#include <sys/ioctl.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>

#include "io/file/terminal.h"
#include "src/core/log.h"

namespace gsort {
namespace {

constexpr auto kTick = std::chrono::milliseconds(250);
constexpr double kFirstDrawSeconds = 0.5;  // a quick sort draws nothing

size_t terminal_width() {
  winsize ws{};
  if (::ioctl(2, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0) return ws.ws_col;
  return 80;
}

std::string format_duration(double s) {
  const long t = static_cast<long>(s + 0.5);
  char buf[32];
  if (t >= 3600) {
    std::snprintf(buf, sizeof buf, "%ld:%02ld:%02ld", t / 3600, t / 60 % 60, t % 60);
  } else {
    std::snprintf(buf, sizeof buf, "%ld:%02ld", t / 60, t % 60);
  }
  return buf;
}

}  // namespace

std::string format_bytes(double bytes) {
  static const char* const units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
  int u = 0;
  while (bytes >= 1024 && u < 5) {
    bytes /= 1024;
    ++u;
  }
  char buf[32];
  std::snprintf(buf, sizeof buf, u == 0 ? "%.0f %s" : "%.1f %s", bytes, units[u]);
  return buf;
}

bool ProgressMeter::wanted(const SortConfig& config) {
  if (config.progress == ProgressMode::kOn) return true;
  if (config.progress == ProgressMode::kOff) return false;
  if (config.mode == Mode::kCheck && config.check_quiet) return false;
  if (::isatty(2) != 1) return false;
  for (const std::string& input : config.inputs) {
    if (input_is_terminal(input)) return false;
  }
  return config.mode == Mode::kCheck || !output_is_terminal_of(config.output, 2);
}

ProgressMeter::ProgressMeter(bool show) : show_(show) {
  if (!show_) return;
  {
    std::lock_guard<std::mutex> lock(stderr_mutex());
    set_in_place_line_locked(this, [this] { clear_locked(); });
  }
  thread_ = std::thread([this] { loop(); });
}

ProgressMeter::~ProgressMeter() { stop(); }

void ProgressMeter::stop() {
  if (!show_) return;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
  std::lock_guard<std::mutex> lock(stderr_mutex());
  clear_locked();
  remove_in_place_line_locked(this);
  show_ = false;
}

void ProgressMeter::phase(const std::string& name, uint64_t total, const std::atomic<uint64_t>* done) {
  std::lock_guard<std::mutex> lock(mutex_);
  name_ = name;
  total_ = total;
  done_ = done;
  base_ = done ? done->load(std::memory_order_relaxed) : 0;
  phase_time_.restart();
}

std::string ProgressMeter::render() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (name_.empty()) return "";
  std::string line = "gsort: " + name_;
  if (done_ == nullptr) return line;
  const uint64_t now_done = done_->load(std::memory_order_relaxed);
  const uint64_t done = now_done > base_ ? now_done - base_ : 0;
  const double seconds = phase_time_.seconds();
  const double rate = seconds > 0 ? static_cast<double>(done) / seconds : 0;
  line += ": " + format_bytes(static_cast<double>(done));
  if (total_ > 0) {
    char pct[16];
    std::snprintf(pct, sizeof pct, " (%.0f%%)", 100.0 * static_cast<double>(std::min(done, total_)) /
                                                    static_cast<double>(total_));
    line += " of " + format_bytes(static_cast<double>(total_)) + pct;
  }
  if (seconds >= 0.2) {
    line += ", " + format_bytes(rate) + "/s";
    if (total_ > 0 && rate > 0 && done > 0 && done < total_) {
      line += ", " + format_duration(static_cast<double>(total_ - done) / rate) + " left";
    }
  }
  return line;
}

void ProgressMeter::loop() {
  std::unique_lock<std::mutex> lock(mutex_);
  for (;;) {
    wake_.wait_for(lock, kTick, [&] { return stopping_; });
    if (stopping_) return;
    if (since_start_.seconds() < kFirstDrawSeconds) continue;
    lock.unlock();
    const std::string line = render();
    {
      std::lock_guard<std::mutex> out(stderr_mutex());
      if (!line.empty()) draw_locked(line);
    }
    lock.lock();
  }
}

void ProgressMeter::draw_locked(const std::string& line) {
  // Fit the terminal, so that \r returns to the start of this line.
  std::string text = line.substr(0, std::max<size_t>(1, terminal_width()) - 1);
  if (text.size() < drawn_) text.append(drawn_ - text.size(), ' ');  // over the longer old line
  write_stderr("\r" + text);
  drawn_ = text.size();
}

void ProgressMeter::clear_locked() {
  if (drawn_ == 0) return;
  write_stderr("\r" + std::string(drawn_, ' ') + "\r");
  drawn_ = 0;
}

}  // namespace gsort
