import Testing

@testable import MarfaQueue

/// Readiness row by row, with no store: what holds a write, what refuses it, what frees it.
@Suite struct ReadinessTests {
  static func gate(_ verdict: VerdictName?, _ reason: BlockedReason? = nil, kind: WriteKind = .createItem)
    -> Readiness.Gate
  {
    Readiness.Gate(verdict: verdict, blockedReason: reason, kind: kind)
  }

  static func following(_ g: Readiness.Gate?, setAside: Bool = false) -> Readiness {
    Readiness.of(follows: "a", dependsOn: [], setAside: setAside ? ["a"] : []) { $0 == "a" ? g : nil }
  }

  static func depending(_ g: Readiness.Gate?, setAside: Bool = false) -> Readiness {
    Readiness.of(follows: nil, dependsOn: ["a"], setAside: setAside ? ["a"] : []) { $0 == "a" ? g : nil }
  }

  @Test("a follower is held while the write ahead has no verdict is set aside or blocks its followers")
  func aFollowerIsHeldWhileTheWriteAheadHasNoVerdictIsSetAsideOrBlocksItsFollowers() {
    #expect(Self.following(Self.gate(nil)) == .held)
    #expect(Self.following(Self.gate(nil), setAside: true) == .held)
    #expect(Self.following(Self.gate(.blocked, .credentialRefused)) == .held)
    #expect(Self.following(Self.gate(.blocked, .failingAlone)) == .held)
  }

  @Test func anyOtherOutcomeAheadFreesTheFollowerARefusalIncluded() {
    for g in [
      Self.gate(.accepted), Self.gate(.refused), Self.gate(.dead), Self.gate(.blocked, .keySpent),
      Self.gate(.blocked, .conflictUnresolved), Self.gate(.blocked, .ancestorUnavailable),
      Self.gate(.blocked, .instanceChanged),
    ] {
      #expect(Self.following(g) == .free, "\(g)")
    }
    #expect(Self.following(nil) == .free)
  }

  @Test func aDependantIsHeldWhileItsDependencyHasNoVerdictIsSetAsideOrIsBlocked() {
    #expect(Self.depending(Self.gate(nil)) == .held)
    #expect(Self.depending(Self.gate(.accepted), setAside: true) == .held)
    for reason in BlockedReason.allCases {
      #expect(Self.depending(Self.gate(.blocked, reason)) == .held, "\(reason)")
    }
  }

  @Test func aDependantOfARefusedOrDeadWriteIsRefusedNamingItsKindsWireName() {
    #expect(Self.depending(Self.gate(.refused)) == .refusedWith("the create_item it waits for was refused"))
    #expect(
      Self.depending(Self.gate(.dead, kind: .createEdge)) == .refusedWith("the create_edge it waits for was dead"))
  }

  @Test func anAnsweredOrGoneDependencyFreesTheDependant() {
    for v in [VerdictName.accepted, .merged, .conflicted] { #expect(Self.depending(Self.gate(v)) == .free) }
    #expect(Self.depending(nil) == .free)
  }

  @Test func theFirstDependencyThatDecidesWins() {
    let gates: [String: Readiness.Gate] = [
      "ok": Self.gate(.accepted), "dead": Self.gate(.dead), "open": Self.gate(nil),
    ]
    #expect(
      Readiness.of(follows: nil, dependsOn: ["ok", "dead", "open"], setAside: []) { gates[$0] }
        == .refusedWith("the create_item it waits for was dead"))
    #expect(Readiness.of(follows: nil, dependsOn: ["ok", "open", "dead"], setAside: []) { gates[$0] } == .held)
  }
}
