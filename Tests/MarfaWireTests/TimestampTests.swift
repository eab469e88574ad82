import Foundation
import MarfaWire
import Testing

/// The clock text read back (`Timestamp.date`): what `Timestamp.text` writes, to the millisecond,
/// and nothing else.
@Suite struct TimestampTests {
  @Test func aClockTextReadsBackAsTheTimeItWasWrittenFromToTheMillisecond() {
    for seconds in [0.0, 1_767_225_600.123, 1_796_677_739.702, 253_402_300_799.999] {
      let date = Date(timeIntervalSince1970: seconds)
      let back = Timestamp.date(Timestamp.text(date))
      // The text cuts to the millisecond: the time read back is that millisecond.
      let cut = seconds - (back?.timeIntervalSince1970 ?? -1)
      #expect(cut >= -0.000_1 && cut < 0.001_1, "\(Timestamp.text(date)): \(cut)")
    }
    #expect(Timestamp.date("2026-12-01T02:00:00Z")?.timeIntervalSince1970 == 1_796_090_400)
    #expect(Timestamp.date("2026-12-01T02:00:00")?.timeIntervalSince1970 == 1_796_090_400)
  }

  @Test func textThatIsNotAClockTextReadsAsNoTime() {
    for text in [
      "", "90s", "2026-12-01", "2026-13-01T00:00:00Z", "2026-12-01T24:00:00Z", "2026-12-01T02:00:00Zx",
      "2026-12-01 02:00:00Z", "1969-12-31T23:59:59Z", "２026-12-01T02:00:00Z", "2026-12-01T02:00:00.1a2Z",
    ] {
      #expect(Timestamp.date(text) == nil, "\(text)")
    }
  }
}
