/// An object that can subscribe to the topics of a ``SubscriptionCenter``.
///
/// The center holds subscribers weakly: subscribing never keeps one alive.
public protocol Subscriber: AnyObject {
  /// The type of message this subscriber receives.
  associatedtype Message

  /// Receives a message sent to a topic this subscriber subscribed to.
  ///
  /// - Parameters:
  ///   - message: The message sent.
  ///   - topic: The topic it was sent to.
  func receive(_ message: Message, topic: String)
}
