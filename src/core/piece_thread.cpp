#include "src/core/piece_thread.h"

#include <algorithm>
#include <utility>

namespace gsort {

PieceThread::PieceThread(NextEnd next_end, SortPiece sort)
    : next_end_(std::move(next_end)), sort_(std::move(sort)), thread_([this] { loop(); }) {}

PieceThread::~PieceThread() { stop(); }

void PieceThread::arrived(uint64_t n) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    available_ = std::max(available_, n);
  }
  changed_.notify_all();
}

uint64_t PieceThread::available() {
  std::lock_guard<std::mutex> lock(mutex_);
  return available_;
}

void PieceThread::loop() {
  for (;;) {
    uint64_t begin = 0, end = 0;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      changed_.wait(lock, [&] { return stopping_ || (end = next_end_locked()) != 0; });
      if (stopping_) return;
      begin = bounds_.back();
      idle_ = false;
    }
    try {
      const uint64_t ended = sort_(begin, end);
      std::lock_guard<std::mutex> lock(mutex_);
      bounds_.push_back(ended);
      idle_ = true;
    } catch (...) {
      std::lock_guard<std::mutex> lock(mutex_);
      error_ = std::current_exception();
      idle_ = true;
      changed_.notify_all();
      return;
    }
    changed_.notify_all();
  }
}

bool PieceThread::finish(uint64_t n, bool only_if_begun) {
  std::unique_lock<std::mutex> lock(mutex_);
  if (error_) std::rethrow_exception(error_);
  if (only_if_begun && bounds_.size() == 1 && idle_) {
    lock.unlock();
    stop();
    return false;
  }
  final_ = n;
  available_ = std::max(available_, n);
  changed_.notify_all();
  changed_.wait(lock, [this] { return error_ || (idle_ && bounds_.back() >= final_); });
  if (error_) std::rethrow_exception(error_);
  lock.unlock();
  stop();  // the chunk has ended: no piece is left to take
  return true;
}

void PieceThread::wait_caught_up() {
  std::unique_lock<std::mutex> lock(mutex_);
  changed_.wait(lock, [this] { return error_ || (idle_ && next_end_locked() == 0); });
}

void PieceThread::stop() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  changed_.notify_all();
  if (thread_.joinable()) thread_.join();
}

}  // namespace gsort
