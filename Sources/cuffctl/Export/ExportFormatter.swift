/// One format of `cuffctl export` (docs/export.md), written as a stream: the text before the first reading,
/// each reading's text as its page arrives, the text after the last — so no more than a page is ever held.
protocol ExportFormatter {
    /// Written before the first reading (a header row, a Bundle's opening).
    var opening: String { get }
    /// The text of one reading; a formatter may remember what it already wrote (a Patient, a separator).
    mutating func text(for reading: ReadingOutput) -> String
    /// Written after the last reading.
    var closing: String { get }
}
