/// A first-in, first-out queue whose ``popFirst()`` takes constant time.
///
/// `Array.removeFirst()` shifts every element after the first, so a queue that builds up
/// costs O(*n*) a delivery, O(*n*²) to drain. This one moves a head index instead, and drops the
/// empty slots in front of it once they are half the array.
struct Queue<Element> {
  private var elements: [Element?] = []
  private var head = 0

  /// The number of elements waiting.
  var count: Int { elements.count - head }

  /// The element at the front, if any.
  var first: Element? { head < elements.count ? elements[head] : nil }

  /// Adds `element` at the back.
  ///
  /// - Complexity: O(1) amortized.
  mutating func append(_ element: Element) {
    elements.append(element)
  }

  /// Takes the element at the front out, or returns `nil` when the queue is empty.
  ///
  /// - Complexity: O(1) amortized.
  mutating func popFirst() -> Element? {
    guard head < elements.count else { return nil }
    let first = elements[head].take()
    head += 1
    if head == elements.count {
      elements.removeAll(keepingCapacity: true)
      head = 0
    } else if head >= 16 && head * 2 >= elements.count {
      // Only empty slots are dropped: nothing is released here.
      elements.removeFirst(head)
      head = 0
    }
    return first
  }
}
