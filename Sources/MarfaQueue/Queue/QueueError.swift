/// Everything a queue call can refuse, each with a stable snake_case ``code``.
public enum QueueError: Error, Sendable, Codable, Hashable {
  /// The queue holds no write with that id.
  case notFound(id: String)
  /// The copy holds no row of that kind (`item`, `edge`) with that id.
  case rowNotFound(kind: String, id: String)
  /// A typed ID (a prefix, a suffix, the short form) that more than one write has.
  case ambiguousID(typed: String, matches: [String])
  /// A typed ID no write has; the closest IDs the queue holds, best first.
  case unknownID(typed: String, closest: [String])
  /// This handle only reads: another process holds the writer role (or it was opened to read).
  case readingHandle(reason: String)
  /// A fill is under way or was interrupted.
  case hydrationIncomplete
  /// The copy expired (`catchup_too_old`, `instance_changed`); a fill refills it.
  case copyExpired(reason: String)
  /// The copy was never filled, so it has no cursor.
  case noCursor
  /// The call needs an instance and none was named.
  case noServer
  /// An answer named another contract than the one this client is built for.
  case contractMismatch(served: String?)
  /// The instance's root (`GET /`, read before the key is sent) named another contract in its
  /// `contract` or its header, or none: nothing else was sent. `served` is what it named.
  case rootContractMismatch(served: String?, instance: String)
  /// The instance's answers broke the contract in another way (a page cursor given again, more
  /// pages or rows than a fill takes); `what` says how, and how far the call got.
  case contractBroken(what: String)
  /// The instance at `instance` answered with a redirect, which is never followed.
  case redirected(status: Int, location: String?, instance: String)
  /// The store's disk is full.
  case storageFull(message: String)
  /// The file is not a store of this schema; nothing was changed.
  case wrongSchema(path: String, unsent: Int?)
  /// A store of a known layout at a schema version this build does not read; nothing was changed.
  case unknownSchema(path: String, found: String, reads: String)
  /// No store at that path.
  case noStore(path: String)
  /// The store could not be read or written.
  case store(path: String, message: String)
  /// The instance could not be reached.
  case network(message: String)
  /// The instance refused a direct call (not a queued write).
  case server(status: Int, code: String?, message: String?)
  /// The input was not acceptable; nothing was changed.
  case invalid(message: String)
  /// The working copy was closed.
  case closed
  /// The drain was stopped (``Queue/stopDrain()``: Ctrl-C, SIGTERM) after `answered` writes
  /// were answered; nothing more was sent, and what was not answered stays queued.
  case canceled(answered: Int)

  /// The stable snake_case code (the Marfa CLI's where one exists).
  public var code: String {
    switch self {
    case .notFound, .unknownID: return "not_found"
    case .rowNotFound: return "not_held"
    case .ambiguousID: return "ambiguous"
    case .readingHandle: return "reading_handle"
    case .hydrationIncomplete: return "hydration_incomplete"
    case .copyExpired: return "copy_expired"
    case .noCursor: return "no_cursor"
    case .noServer: return "no_server"
    case .contractMismatch, .rootContractMismatch, .contractBroken: return "contract_mismatch"
    case .redirected: return "redirect"
    case .storageFull: return "storage_full"
    case .wrongSchema, .unknownSchema: return "wrong_schema"
    case .noStore: return "no_store"
    case .store: return "store"
    case .network: return "network"
    case .server: return "server"
    case .invalid: return "invalid"
    case .closed: return "closed"
    case .canceled: return "canceled"
    }
  }

  /// One plain sentence for a person.
  public var message: String {
    switch self {
    case .notFound(let id): return "the queue holds no write \(id)"
    case .rowNotFound(let kind, let id): return "the copy holds no \(kind) \(id)"
    case .ambiguousID(let typed, let matches):
      let shown = matches.prefix(WriteIDResolver.listed).joined(separator: ", ")
      let more = matches.count > WriteIDResolver.listed ? " and \(matches.count - WriteIDResolver.listed) more" : ""
      return "\(typed) names \(matches.count) writes: \(shown)\(more); give more of the ID"
    case .unknownID(let typed, let closest):
      let short = WriteIDResolver.typedPart(typed).text.count < WriteIDResolver.minimumPart
      let near =
        !closest.isEmpty
        ? "; the closest: \(closest.joined(separator: ", "))"
        : short ? " (give the whole ID, or at least \(WriteIDResolver.minimumPart) characters of either end)" : ""
      return "the queue holds no write \(typed)\(near)"
    case .readingHandle(let reason): return "this handle only reads: \(reason)"
    case .hydrationIncomplete: return "a fill is under way or was interrupted; fill again before draining"
    case .copyExpired(let reason): return "the copy expired (\(reason)); fill it again, the queue is kept"
    case .noCursor: return "the copy was never filled; fill it before draining"
    case .noServer: return "no instance URL was given"
    case .contractMismatch(let served):
      return
        "the instance answered with contract \(served ?? "none"), not \(HTTPClient.contract); the write may have taken effect and will be sent again under its key"
    case .rootContractMismatch(let served, let instance):
      let named = served.map { "contract \($0)" } ?? "no contract"
      return
        "the instance at \(instance) names \(named) in its root, and verdicts speaks contract \(HTTPClient.contract); nothing was sent to it, the key neither"
    case .contractBroken(let what): return "the instance broke the contract: \(what)"
    case .redirected(let status, let location, let instance):
      return
        "the instance at \(instance) answered \(status) redirecting to \(location ?? "nowhere it named"); redirects are not followed, and the queue is as it was"
    case .storageFull(let message): return "the store's disk is full: \(message)"
    case .wrongSchema(let path, let unsent):
      let count = unsent.map { ", holding \($0) write(s) not yet sent" } ?? ""
      return "\(path) is not a verdicts store of this schema\(count); nothing was changed"
    case .unknownSchema(let path, let found, let reads):
      return "\(path) is \(found), which this build does not read (it reads \(reads)); nothing was changed"
    case .noStore(let path): return "no store at \(path)"
    case .store(let path, let message): return "the store \(path) failed: \(message)"
    case .network(let message): return "the instance could not be reached: \(message)"
    case .server(let status, let code, let message):
      return "the instance refused (\(status)\(code.map { " \($0)" } ?? "")): \(message ?? "no message")"
    case .invalid(let message): return message
    case .closed: return "the working copy is closed"
    case .canceled(let answered):
      return
        "the drain was stopped: \(answered) write(s) answered before it; nothing more was sent, and the rest stay queued"
    }
  }
}
