// lanes.h - runs one piece of work per cycle on several threads and waits
// for all of them: the router array's routers are evaluated in lanes
// (tb/rtl_array.cpp), each lane a fixed share of the routers.
//
// Lane 0 is the calling thread; lanes 1..n-1 are threads that live as long
// as the object.  run(f) calls f(lane) on every lane and returns when all
// are done.  A cycle's work is short (tens of microseconds), so a waiting
// thread spins, then yields, before it sleeps (Waiter below).
#ifndef SPIN_TB_LANES_H
#define SPIN_TB_LANES_H

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

class Lanes {
 public:
  explicit Lanes(int n) : n_(n < 1 ? 1 : n) {
    for (int i = 1; i < n_; i++) threads_.emplace_back([this, i] { loop(i); });
  }
  ~Lanes() {
    {
      std::lock_guard<std::mutex> g(mu_);
      stop_ = true;
      gen_.fetch_add(1);
    }
    cv_go_.notify_all();
    for (auto& t : threads_) t.join();
  }
  Lanes(const Lanes&) = delete;
  Lanes& operator=(const Lanes&) = delete;

  int size() const { return n_; }

  void run(const std::function<void(int)>& f) {
    if (n_ == 1) {
      f(0);
      return;
    }
    work_ = &f;
    left_.store(n_ - 1);
    {
      std::lock_guard<std::mutex> g(mu_);
      gen_.fetch_add(1);
    }
    cv_go_.notify_all();
    f(0);
    for (Waiter w; left_.load() != 0;) {
      if (w.keep_spinning()) continue;
      std::unique_lock<std::mutex> l(mu_);
      cv_done_.wait(l, [this] { return left_.load() == 0; });
    }
    work_ = nullptr;
  }

 private:
  // How a lane waits for the other side: it spins (a pause between reads)
  // for kSpinUs, then yields its CPU to any other runnable thread for up to
  // kYieldUs more, then sleeps on the condition variable.  The yields keep
  // a busy machine safe: a spinning lane would hold the CPU that the lane it
  // waits for needs.  On an idle machine a cycle's hand-over stays in the
  // spin or yield phase (a microsecond); a sleep costs a wake-up of tens of
  // microseconds, more than the share of a cycle's work it hands over.
  static constexpr int kSpinUs = 20;
  static constexpr int kYieldUs = 2000;
  class Waiter {
   public:
    bool keep_spinning() {
      if ((++n_ & 63) != 0) {
        pause();
        return true;
      }
      auto us = std::chrono::duration_cast<std::chrono::microseconds>(
                    std::chrono::steady_clock::now() - t0_).count();
      if (us < kSpinUs) return true;
      if (us < kSpinUs + kYieldUs) {
        std::this_thread::yield();
        return true;
      }
      return false;
    }

   private:
    static void pause() {
#if defined(__x86_64__) || defined(__i386__)
      __builtin_ia32_pause();
#endif
    }
    unsigned n_ = 0;
    std::chrono::steady_clock::time_point t0_ = std::chrono::steady_clock::now();
  };

  void loop(int lane) {
    unsigned seen = 0;
    for (;;) {
      for (Waiter w; gen_.load() == seen;) {
        if (w.keep_spinning()) continue;
        std::unique_lock<std::mutex> l(mu_);
        cv_go_.wait(l, [this, seen] { return gen_.load() != seen; });
      }
      seen = gen_.load();
      if (stop_) return;
      (*work_)(lane);
      if (left_.fetch_sub(1) == 1) {
        std::lock_guard<std::mutex> g(mu_);
        cv_done_.notify_one();
      }
    }
  }

  const int n_;
  std::vector<std::thread> threads_;
  std::mutex mu_;
  std::condition_variable cv_go_, cv_done_;
  std::atomic<unsigned> gen_{0};
  std::atomic<int> left_{0};
  const std::function<void(int)>* work_ = nullptr;
  bool stop_ = false;
};

// Whether a cycle runs on all lanes or on the calling thread alone, chosen
// by timing the run itself: a window of kWindow cycles on all lanes, one on
// the calling thread, then the faster way for hold windows; each time the
// same way wins again, hold doubles (up to kMaxHold), so a machine whose
// load does not change pays for the slower way rarely.  On an idle machine
// the lanes win; on one whose other CPUs are busy, every hand-over waits for
// a CPU and the calling thread alone wins (10x, measured).  The results are
// the same either way: which thread evaluates a router changes nothing.
class LaneChoice {
 public:
  // lanes: whether there are lanes to choose (more than one)
  explicit LaneChoice(bool lanes) : lanes_(lanes) {}

  // Called once before each cycle: true to run it on all lanes.
  bool next() {
    if (!lanes_) return false;
    if (left_ > 0) {
      left_--;
      return all_;
    }
    const auto now = std::chrono::steady_clock::now();
    const double dt = std::chrono::duration<double>(now - t0_).count();
    t0_ = now;
    if (phase_ == kAll) {          // the window on all lanes ended
      t_all_ = dt;
      phase_ = kOne;
      all_ = false;
      left_ = kWindow;
    } else if (phase_ == kOne) {   // the window on one ended: choose
      const bool all = t_all_ <= dt;
      hold_ = all == best_all_ ? (hold_ * 2 > kMaxHold ? kMaxHold : hold_ * 2) : 1;
      best_all_ = all;
      all_ = all;
      phase_ = kHold;
      left_ = kWindow * hold_;
    } else {                       // measure again
      phase_ = kAll;
      all_ = true;
      left_ = kWindow;
    }
    left_--;
    return all_;
  }

 private:
  static constexpr long kWindow = 200;
  static constexpr long kMaxHold = 64;
  enum Phase { kAll, kOne, kHold };
  const bool lanes_;
  Phase phase_ = kAll;
  bool all_ = true, best_all_ = true;
  long left_ = kWindow, hold_ = 1;
  double t_all_ = 0;
  std::chrono::steady_clock::time_point t0_ = std::chrono::steady_clock::now();
};

#endif
