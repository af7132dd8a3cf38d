import Foundation
import Support

/// A task executor that runs every job on one thread of its own, and can tell when it has
/// nothing left to run.
///
/// The `Observations` adapter runs its consumers here, so that a scenario, which sets a value
/// and then looks at what its observers received, can wait for the consumers to have run,
/// without needing a thread of Swift's cooperative pool (which a blocked test thread may hold).
package final class DedicatedExecutor: TaskExecutor, @unchecked Sendable {
  // Unchecked: `jobs` and `isRunning` are touched only with `condition` locked.
  private let condition = NSCondition()
  private var jobs: [UnownedJob] = []
  private var isRunning = false
  private var thread: Thread?

  /// Starts the executor's thread, which runs for as long as the process does: make one for a
  /// design and hand it to everything the design makes.
  package init() {
    let thread = Thread { [unowned self] in self.runJobs() }
    thread.name = "Observations consumers"
    self.thread = thread
    thread.start()
  }

  /// Whether this code runs on the executor's thread: inside a consumer.
  package var isCurrent: Bool { Thread.current === thread }

  /// Runs `body` on the executor's thread and returns what it returns, once every job enqueued
  /// before it has run too.
  package func runAndWait<Result: Sendable>(_ body: @escaping @Sendable () -> Result) -> Result {
    // Written on the executor's thread before it goes idle, read after `waitUntilIdle()`: the
    // wait is the lock.
    let result = SingleThreadedBox<Result?>(nil)
    Task(executorPreference: self) { result.value = body() }
    waitUntilIdle()
    return result.value!
  }

  package func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    condition.lock()
    jobs.append(job)
    condition.broadcast()
    condition.unlock()
  }

  /// Returns once every job enqueued so far, and every job those enqueued, has run.
  package func waitUntilIdle() {
    condition.lock()
    while isRunning || !jobs.isEmpty { condition.wait() }
    condition.unlock()
  }

  private func runJobs() {
    while true {
      condition.lock()
      while jobs.isEmpty {
        isRunning = false
        condition.broadcast()
        condition.wait()
      }
      let job = jobs.removeFirst()
      isRunning = true
      condition.unlock()
      job.runSynchronously(on: asUnownedTaskExecutor())
    }
  }
}
