/// The app's inbox, held weakly, for a background loop that must end when the app lets go of it.
final class WeakInbox: Sendable {
  weak let inbox: AppInbox?

  init(_ inbox: AppInbox) { self.inbox = inbox }
}
