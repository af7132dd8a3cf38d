import Foundation

extension QuizCode {
  static func chapter8(_ print: @escaping @Sendable (Any) -> Void) {
    let center = NotificationCenter()
    let name = Notification.Name("score")
    let token = center.addObserver(forName: name, object: nil, queue: nil) { note in
      print(note.userInfo?["points"] ?? "none")
    }
    center.post(name: name, object: nil, userInfo: ["points": 3])
    center.removeObserver(token)
    center.post(name: name, object: nil, userInfo: ["points": 4])
  }
}
