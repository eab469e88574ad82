import MarfaQueue

/// What kind of value the word under the cursor is, as the command table says.
enum CompletionTarget: Sendable, Hashable {
  /// Nothing to offer (a JSON object, a type, an item id, a key).
  case nothing
  /// These words (commands, options, a closed set of values).
  case words([String])
  /// A file name: the shell completes it.
  case files
  /// One of these names, or a file (`--theme NAME|FILE`): files when the word looks like a path
  /// or no name fits it.
  case namesOrFiles([String])
  /// The ids of the writes in the store that `action` may take (nil: every write), after `also`
  /// (`--from`'s `now`).
  case writeIDs(WriteAction?, also: [String])
  /// The ids of the departed writes an undo may put back (`undo ID`).
  case departedIDs
}
