#if canImport(Glibc)
  import Glibc
#endif

extension WorkingCopy {
  /// Whether the store file this copy opened is still the one at its path (one `stat`; reads
  /// and writes nothing). A watcher asks it to notice a store deleted, moved or replaced under it.
  public func storeFileState() -> StoreFileState {
    guard let opened = store.identity else { return .same }
    guard let now = StorePath.identity(store.path) else { return .removed }
    return now == opened ? .same : .replaced
  }
}
