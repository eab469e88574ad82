import Foundation
import MarfaQueue
import Testing

@testable import VerdictsUI

/// The drain's throughput over the last minute, drawn in cells beside the rate.
@Suite struct SparklineTests {
  @Test func cellsRiseWithTheValuesAndZeroStaysBlank() {
    #expect(Sparkline.draw([0, 1, 2, 4, 8], ascii: false) == " ▁▂▄█")
    #expect(Sparkline.draw([0, 0, 0], ascii: false) == "   ")
    #expect(Sparkline.draw([0, 1, 2, 4, 8], ascii: true) == " .:=@")
  }

  @Test func anyValueAboveZeroDrawsAtLeastTheLowestMark() {
    #expect(Sparkline.draw([1, 1000], ascii: false) == "▁█")
  }

  @Test func theAsciiFormUsesNoBorderCharacter() {
    #expect(!Sparkline.asciiLevels.contains { "+-|".contains($0) })
    #expect(Sparkline.asciiLevels.allSatisfy { $0.isASCII })
  }

  @Test func throughputCountsWhatTheDrainGrewByInTheBucketItWasSeen() {
    let start = Date(timeIntervalSince1970: 1_000_000)
    var t = Throughput()
    t.note(WriterRecord.DrainProgress(startedAt: start, total: 1000, sent: 0), at: start)
    t.note(WriterRecord.DrainProgress(startedAt: start, total: 1000, sent: 100), at: start + 1)
    t.note(WriterRecord.DrainProgress(startedAt: start, total: 1000, sent: 150), at: start + 6)
    let rates = t.rates(now: start + 6)
    #expect(rates.count == Throughput.buckets)
    #expect(rates.suffix(2) == [100 / Throughput.bucketSeconds, 50 / Throughput.bucketSeconds])
  }

  @Test func aWatcherJoiningMidDrainDoesNotCountWhatWasDoneBeforeIt() {
    let start = Date(timeIntervalSince1970: 1_000_000)
    var t = Throughput()
    t.note(WriterRecord.DrainProgress(startedAt: start, total: 5000, sent: 4000), at: start + 20)
    #expect(t.isEmpty(now: start + 20))
    t.note(WriterRecord.DrainProgress(startedAt: start, total: 5000, sent: 4010), at: start + 21)
    #expect(t.rates(now: start + 21).last == 10 / Throughput.bucketSeconds)
  }

  @Test func aNewDrainCountsFromItsStartAndAMinuteLaterNothingIsLeft() {
    let first = Date(timeIntervalSince1970: 1_000_000)
    var t = Throughput()
    t.note(WriterRecord.DrainProgress(startedAt: first, total: 10, sent: 10), at: first + 1)
    let second = first + 30
    t.note(WriterRecord.DrainProgress(startedAt: second, total: 10, sent: 5), at: second + 1)
    #expect(t.rates(now: second + 1).last == 5 / Throughput.bucketSeconds)
    #expect(t.isEmpty(now: second + 100))
  }
}
