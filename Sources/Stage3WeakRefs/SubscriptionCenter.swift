/// Named topics, each with a set of weakly held subscribers, after a subscription service center
/// written in Objective-C.
///
/// A topic must be created before anyone can subscribe to it. Sending a message to a topic
/// delivers it once to each of its subscribers that is still alive, in subscription order.
/// Subscribers are held weakly, as the original held them in a weak `NSHashTable`; Foundation on
/// Linux has no `NSHashTable`, so each subscriber sits in a weak box here.
///
/// The original kept its topics in a static dictionary, so every center in the process shared
/// them. These topics belong to one center.
///
/// ```swift
/// let center = SubscriptionCenter<String>()
/// center.createTopic("computers")
/// center.addSubscriber(shopper, to: "computers")
/// center.send("a new laptop", to: "computers")  // shopper.receive("a new laptop", topic: "computers")
/// ```
///
/// `SubscriptionCenter` is not `Sendable`: use it from one thread only.
public final class SubscriptionCenter<Message> {
  private struct WeakSubscriber {
    weak var object: AnyObject?
    let deliver: (AnyObject, Message, String) -> Void
  }

  private var subscribersByTopic: [String: [WeakSubscriber]] = [:]

  /// The names of the topics that exist, sorted.
  public var topics: [String] { subscribersByTopic.keys.sorted() }

  /// Creates a center with no topics.
  public init() {}

  /// Creates `topic`; a topic that already exists keeps its subscribers.
  ///
  /// - Parameter topic: The name of the topic.
  public func createTopic(_ topic: String) {
    if subscribersByTopic[topic] == nil {
      subscribersByTopic[topic] = []
    }
  }

  /// Removes `topic` and its subscriptions; its subscribers receive nothing more from it.
  ///
  /// - Parameter topic: The name of the topic; an unknown one is ignored.
  public func removeTopic(_ topic: String) {
    subscribersByTopic[topic] = nil
  }

  /// Subscribes `subscriber`, weakly held, to `topic`.
  ///
  /// A topic that was never created is ignored, as in the original: the call does nothing.
  /// A subscriber already subscribed to the topic is kept once.
  ///
  /// - Parameters:
  ///   - subscriber: The object to deliver the topic's messages to while it lives.
  ///   - topic: The name of a topic made with ``createTopic(_:)``.
  /// - Complexity: O(*n*), where *n* is the number of the topic's subscribers.
  public func addSubscriber<S: Subscriber>(_ subscriber: S, to topic: String)
  where S.Message == Message {
    guard var subscribers = subscribersByTopic[topic] else { return }
    subscribers.removeAll { $0.object == nil }
    guard !subscribers.contains(where: { $0.object === subscriber }) else { return }
    subscribers.append(
      WeakSubscriber(object: subscriber) { object, message, topic in
        (object as? S)?.receive(message, topic: topic)
      })
    subscribersByTopic[topic] = subscribers
  }

  /// Unsubscribes `subscriber` from `topic`; anything unknown is ignored.
  ///
  /// - Parameters:
  ///   - subscriber: The object to unsubscribe.
  ///   - topic: The name of the topic.
  /// - Complexity: O(*n*), where *n* is the number of the topic's subscribers.
  public func removeSubscriber(_ subscriber: AnyObject, from topic: String) {
    subscribersByTopic[topic]?.removeAll { $0.object === subscriber || $0.object == nil }
  }

  /// Sends `message` to each live subscriber of `topic`, once, in subscription order.
  ///
  /// A topic that does not exist has no subscribers: nothing happens.
  ///
  /// - Parameters:
  ///   - message: The message to deliver.
  ///   - topic: The name of the topic.
  /// - Complexity: O(*n*), where *n* is the number of the topic's subscribers.
  public func send(_ message: Message, to topic: String) {
    for subscriber in subscribersByTopic[topic] ?? [] {
      if let object = subscriber.object {
        subscriber.deliver(object, message, topic)
      }
    }
  }

  /// The number of live subscribers of `topic`; 0 for a topic that does not exist.
  ///
  /// - Parameter topic: The name of the topic.
  /// - Returns: How many of the topic's subscribers are still alive.
  /// - Complexity: O(*n*), where *n* is the number of the topic's subscribers.
  public func subscriberCount(of topic: String) -> Int {
    subscribersByTopic[topic]?.count { $0.object != nil } ?? 0
  }
}
