/// One part of the status line, how much it matters, and a shorter way to say it.
///
/// The status line keeps what a person watching is there for (the writer, the drain's progress,
/// its rate and time left, reachability) and gives up the rest, least important first, when the
/// terminal is too narrow for every part (``Renderer/fitted(_:width:)``).
struct StatusPart: Sendable, Hashable {
  /// The part as said with room.
  var line: TextLine
  /// The part said in fewer columns (nil: it has no shorter form).
  var short: TextLine?
  /// How much it matters: the lowest goes first; ``essential`` and above are shortened before
  /// any of them goes.
  var priority: Int

  /// Parts at this priority or above are what the line is for.
  static let essential = 70

  init(_ line: TextLine, priority: Int, short: TextLine? = nil) {
    self.line = line
    self.short = short
    self.priority = priority
  }
}
