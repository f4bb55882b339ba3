// lanes.h - runs one piece of work per cycle on several threads and waits
// for all of them: the router array's routers are evaluated in lanes
// (tb/rtl_array.cpp), each lane a fixed share of the routers.
//
// Lane 0 is the calling thread; lanes 1..n-1 are threads that live as long
// as the object.  run(f) calls f(lane) on every lane and returns when all
// are done.  A cycle's work is short (tens of microseconds), so a waiting
// thread spins for a while before it sleeps: on an idle machine the
// hand-over costs about a microsecond, and on a busy one the sleep keeps a
// waiting lane off the CPU.
#ifndef SPIN_TB_LANES_H
#define SPIN_TB_LANES_H

#include <atomic>
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
    for (int spin = 0; left_.load() != 0; spin++) {
      if (spin < kSpins) continue;
      std::unique_lock<std::mutex> l(mu_);
      cv_done_.wait(l, [this] { return left_.load() == 0; });
    }
    work_ = nullptr;
  }

 private:
  static const int kSpins = 20000;

  void loop(int lane) {
    unsigned seen = 0;
    for (;;) {
      for (int spin = 0; gen_.load() == seen; spin++) {
        if (spin < kSpins) continue;
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

#endif
