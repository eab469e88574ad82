/// A rule across several arguments of one command, named by option (`--reason`) or positional (`ID`).
enum Constraint: Sendable, Hashable {
  /// Exactly one of these is given.
  case exactlyOne([String])
  /// Either all of these are given or none.
  case together([String])
  /// `first` is only accepted when `second` is given too.
  case needs(String, String)
}
