// WorkerPool: a persistent set of threads for data-parallel loops whose
// tasks are independent (the worlds of a Batch, the islands of one world's
// constraint problem).
#pragma once

#include <atomic>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace contactlab {

// A fixed set of threads that run n tasks per call. The caller works too, so
// `threads` counts it. Started once: run() creates no thread and allocates
// nothing (a function pointer and a context instead of std::function).
class WorkerPool {
 public:
  using Task = void (*)(void* context, int index);

  explicit WorkerPool(int threads) {
    for (int i = 1; i < threads; ++i) workers_.emplace_back([this] { loop(); });
  }
  ~WorkerPool() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stop_ = true;
    }
    wake_.notify_all();
    for (std::thread& t : workers_) t.join();
  }
  int size() const { return static_cast<int>(workers_.size()) + 1; }

  // task(context, i) for every i in [0, n), in any order and on any thread;
  // returns when all are done and rethrows the first exception (every task
  // still runs, so no task is left undone by another's failure).
  void run(int n, Task task, void* context) {
    error_ = nullptr;
    if (workers_.empty()) {
      for (int i = 0; i < n; ++i) guarded(task, context, i);
    } else {
      {
        std::lock_guard<std::mutex> lock(mutex_);
        task_ = task;
        context_ = context;
        count_ = n;
        next_.store(0);
        busy_ = static_cast<int>(workers_.size());
        ++generation_;
      }
      wake_.notify_all();
      work();
      std::unique_lock<std::mutex> lock(mutex_);
      done_.wait(lock, [this] { return busy_ == 0; });
    }
    if (error_) std::rethrow_exception(error_);
  }

 private:
  void guarded(Task task, void* context, int i) {
    try {
      task(context, i);
    } catch (...) {
      std::lock_guard<std::mutex> lock(error_mutex_);
      if (!error_) error_ = std::current_exception();
    }
  }
  // Claims tasks until none is left (dynamic: tasks may differ in cost).
  void work() {
    for (int i = next_.fetch_add(1); i < count_; i = next_.fetch_add(1)) guarded(task_, context_, i);
  }
  void loop() {
    long seen = 0;
    for (;;) {
      {
        std::unique_lock<std::mutex> lock(mutex_);
        wake_.wait(lock, [&] { return stop_ || generation_ != seen; });
        if (stop_) return;
        seen = generation_;
      }
      work();
      std::lock_guard<std::mutex> lock(mutex_);
      if (--busy_ == 0) done_.notify_one();
    }
  }

  std::vector<std::thread> workers_;
  std::mutex mutex_, error_mutex_;
  std::condition_variable wake_, done_;
  bool stop_ = false;
  long generation_ = 0;  // bumped per run(): wakes the workers exactly once
  int busy_ = 0;         // workers still inside the current run
  Task task_ = nullptr;
  void* context_ = nullptr;
  int count_ = 0;
  std::atomic<int> next_{0};
  std::exception_ptr error_;
};

}  // namespace contactlab
