import Testing

@testable import VerdictsUI

/// Rough timing of the renderer (printed, not asserted tightly: the machine is shared).
