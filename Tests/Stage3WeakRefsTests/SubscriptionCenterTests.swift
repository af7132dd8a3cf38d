import LifetimeTracking
import Stage3WeakRefs
import Testing

private final class Shopper: Subscriber {
  let name: String
  let log: ValueLog<String>

  init(_ name: String, log: ValueLog<String>) {
    self.name = name
    self.log = log
  }

  func receive(_ message: String, topic: String) {
    log.append("\(name) got \(message) on \(topic)")
  }
}

@Suite("Stage 3: SubscriptionCenter, topics of weak subscribers")
struct SubscriptionCenterTests {
  @Test("a message reaches each subscriber of its topic once, in subscription order")
  func sendsToTopicSubscribers() {
    let log = ValueLog<String>()
    let (ann, bob, cy) = (
      Shopper("ann", log: log), Shopper("bob", log: log), Shopper("cy", log: log)
    )
    let center = SubscriptionCenter<String>()
    center.createTopic("computers")
    center.createTopic("books")
    center.addSubscriber(ann, to: "computers")
    center.addSubscriber(bob, to: "computers")
    center.addSubscriber(cy, to: "books")
    center.send("laptop", to: "computers")
    #expect(log.entries == ["ann got laptop on computers", "bob got laptop on computers"])
    #expect(center.subscriberCount(of: "computers") == 2)
  }

  @Test("subscribing to a topic never created is ignored")
  func unknownTopicIgnored() {
    let log = ValueLog<String>()
    let ann = Shopper("ann", log: log)
    let center = SubscriptionCenter<String>()
    center.addSubscriber(ann, to: "computers")
    center.send("laptop", to: "computers")
    #expect(log.entries.isEmpty)
    #expect(center.topics.isEmpty)
    #expect(center.subscriberCount(of: "computers") == 0)
  }

  @Test("the same subscriber added twice is kept once")
  func duplicateSubscriberKeptOnce() {
    let log = ValueLog<String>()
    let ann = Shopper("ann", log: log)
    let center = SubscriptionCenter<String>()
    center.createTopic("computers")
    center.addSubscriber(ann, to: "computers")
    center.addSubscriber(ann, to: "computers")
    center.send("laptop", to: "computers")
    #expect(log.entries == ["ann got laptop on computers"])
    #expect(center.subscriberCount(of: "computers") == 1)
  }

  @Test("creating an existing topic keeps its subscribers")
  func recreateKeepsSubscribers() {
    let ann = Shopper("ann", log: ValueLog())
    let center = SubscriptionCenter<String>()
    center.createTopic("computers")
    center.addSubscriber(ann, to: "computers")
    center.createTopic("computers")
    #expect(center.subscriberCount(of: "computers") == 1)
  }

  @Test("a removed subscriber receives nothing more; an unknown one is ignored")
  func removeSubscriber() {
    let log = ValueLog<String>()
    let (ann, bob) = (Shopper("ann", log: log), Shopper("bob", log: log))
    let center = SubscriptionCenter<String>()
    center.createTopic("computers")
    center.addSubscriber(ann, to: "computers")
    center.removeSubscriber(ann, from: "computers")
    center.removeSubscriber(bob, from: "computers")
    center.removeSubscriber(ann, from: "books")
    center.send("laptop", to: "computers")
    #expect(log.entries.isEmpty)
    #expect(center.subscriberCount(of: "computers") == 0)
  }

  @Test("a removed topic delivers nothing to its former subscribers")
  func removeTopic() {
    let log = ValueLog<String>()
    let ann = Shopper("ann", log: log)
    let center = SubscriptionCenter<String>()
    center.createTopic("computers")
    center.createTopic("books")
    center.addSubscriber(ann, to: "computers")
    center.removeTopic("computers")
    center.send("laptop", to: "computers")
    #expect(log.entries.isEmpty)
    #expect(center.topics == ["books"])
  }

  @Test("subscribers are held weakly: a released one is freed and skipped")
  func subscribersHeldWeakly() {
    let log = ValueLog<String>()
    var ann: Shopper? = Shopper("ann", log: log)
    weak let weakAnn = ann
    let bob = Shopper("bob", log: log)
    let center = SubscriptionCenter<String>()
    center.createTopic("computers")
    center.addSubscriber(ann!, to: "computers")
    center.addSubscriber(bob, to: "computers")
    ann = nil
    #expect(weakAnn == nil)
    center.send("laptop", to: "computers")
    #expect(log.entries == ["bob got laptop on computers"])
    #expect(center.subscriberCount(of: "computers") == 1)
  }

  @Test("topics are sorted and belong to one center: two centers do not share them")
  func topicsPerInstance() {
    let log = ValueLog<String>()
    let ann = Shopper("ann", log: log)
    let first = SubscriptionCenter<String>()
    let second = SubscriptionCenter<String>()
    first.createTopic("computers")
    first.createTopic("books")
    second.addSubscriber(ann, to: "computers")
    second.send("laptop", to: "computers")
    #expect(first.topics == ["books", "computers"])
    #expect(second.topics.isEmpty)
    #expect(log.entries.isEmpty)
  }
}
