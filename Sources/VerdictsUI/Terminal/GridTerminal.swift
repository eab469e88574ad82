/// An in-memory terminal for tests and benchmarks: keeps the last frame, counts the cells
/// each frame changed, and plays back queued input.
package final class GridTerminal: Terminal {
  /// The last frame shown.
  public private(set) var screen: Grid
  /// Frames shown so far.
  public private(set) var frames = 0
  /// Cells the last frame changed (what a diffing terminal would send).
  public private(set) var changedCells = 0
  /// Input waiting to be read.
  public var pendingInput: [TerminalInput] = []
  /// Whether ``restore()`` was called.
  public private(set) var restored = false
  /// The theme last set.
  public private(set) var theme: Theme?
  private var width: Int
  private var height: Int
  private var invalid = true

  /// A terminal of this size.
  public init(width: Int, height: Int) {
    self.width = width
    self.height = height
    self.screen = Grid(width: width, height: height)
  }

  /// The bytes a diffing terminal would have sent, counted as one a changed cell (and the raw
  /// sequences' own).
  public private(set) var bytesWritten = 0

  /// Every raw sequence sent (OSC 52), in order.
  public private(set) var raw: [[UInt8]] = []

  /// Keeps the bytes, as a terminal would receive them.
  public func sendRaw(_ bytes: [UInt8]) {
    raw.append(bytes)
    bytesWritten += bytes.count
  }

  public var size: (width: Int, height: Int) { (width, height) }
  public var inputDescriptor: Int32? { nil }
  public var supportsUnicode: Bool { true }
  public var colorDepth: ColorDepth { .colors256 }

  public func setTheme(_ theme: Theme, depth: ColorDepth) { self.theme = theme }

  public func present(_ grid: Grid) {
    if invalid || grid.width != screen.width || grid.height != screen.height {
      changedCells = grid.cells.count
    } else {
      changedCells = zip(grid.cells, screen.cells).reduce(0) { $0 + ($1.0 == $1.1 ? 0 : 1) }
    }
    invalid = false
    bytesWritten += changedCells
    screen = grid
    frames += 1
  }

  public func readInput() -> [TerminalInput] {
    defer { pendingInput = [] }
    return pendingInput
  }

  /// Resizes, queueing the resize as input.
  public func resize(width: Int, height: Int) {
    self.width = width
    self.height = height
    pendingInput.append(.resize(width: width, height: height))
  }

  public func invalidate() { invalid = true }

  public func restore() { restored = true }
}
