/// A report entry's kind as a person reads it.
extension DrainVerdict {
  /// The kind's wire name, or `unreadable:<what the store holds>` (``QueuedWrite/kindName``).
  public var kindName: String { unknownKind.map(QueuedWrite.unreadableName) ?? kind.wireName }
}
