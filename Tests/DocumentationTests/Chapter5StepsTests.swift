import Testing
import TutorialDemos

@Suite("Chapter 5's steps do what the chapter says")
struct Chapter5StepsTests {
  @Test("step 2 done wrong: a handler that reads the value stops the program")
  func handlersUnderTheLockStopTheProgram() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      let observable = LockedWhileCalling(0)
      observable.observe { _ in _ = observable.value }
      observable.value = 1
    }
    let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(message.contains("Recursive call to lock Mutex"))
  }

  @Test("step 2 done right: the same handler reads the value")
  func copyThenCallLetsAHandlerRead() {
    let observable = CopyThenCall(0)
    let seen = CopyThenCall(-1)
    observable.observe { _ in seen.value = observable.value }
    observable.value = 1
    #expect(seen.value == 1)
  }
}
