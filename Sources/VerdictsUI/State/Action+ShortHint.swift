extension Action {
  /// The hint's word in fewer letters, for a bottom line too narrow for every key's full word
  /// (`? help` and `q quit` keep theirs: ``Renderer/fittedHints(width:)``).
  var shortHint: String {
    switch self {
    case .release: return "rel"
    case .releaseReason: return "reason"
    case .withdraw: return "wdraw"
    case .discard: return "disc"
    case .forget: return "fgt"
    case .drain: return "drn"
    case .filter: return "filt"
    case .follow: return "fol"
    case .pause: return "paus"
    case .focusDetail: return "det"
    case .clear: return "clr"
    case .jump: return "jmp"
    default: return hint
    }
  }
}
