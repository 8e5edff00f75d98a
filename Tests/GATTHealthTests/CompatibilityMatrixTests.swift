import Foundation
import GATTHealth
import Testing

/// docs/compatibility.md and ``CuffCatalog`` tell the same story: every model and family of the catalog has its row,
/// with its protocol and a "what works" cell that starts with the catalog's verdict; the page lists nothing the catalog
/// does not know.
@Suite("docs/compatibility.md against the catalog")
struct CompatibilityMatrixTests {
    struct Row: CustomStringConvertible {
        let brand, model, protocolName, works: String
        var description: String { "\(brand) \(model)" }
    }

    static let rows: [Row] = {
        let page = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("docs/compatibility.md")
        let text = (try? String(contentsOf: page, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { line -> Row? in
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count == 8, cells[1] != "brand", !cells[1].hasPrefix("---") else { return nil }
            return Row(brand: cells[1], model: cells[2], protocolName: cells[3], works: cells[4])
        }
    }()

    /// The row of `model`: its brand, and a model cell that is the model's name, alone or before a parenthesis.
    static func row(of model: CuffModel) -> Row? {
        rows.first { $0.brand == model.brand && ($0.model == model.model || $0.model.hasPrefix(model.model + " (")) }
    }

    static func leadingWords(_ verdict: CuffVerdict) -> String {
        switch verdict {
        case .supported: "supported: "
        case .quirk: "supported, with quirk: "
        case .unsupported: "not supported: "
        }
    }

    @Test func thePageHasAMatrix() {
        #expect(Self.rows.count >= CuffCatalog.models.count)
    }

    @Test(arguments: CuffCatalog.models + CuffCatalog.families)
    func everyModelHasItsRow(_ model: CuffModel) throws {
        let row = try #require(Self.row(of: model), "docs/compatibility.md has no row for \(model.title)")
        #expect(row.protocolName == model.protocolKind.rawValue, "\(row)")
        #expect(row.works.hasPrefix(Self.leadingWords(model.verdict)), "\(row): \(row.works)")
    }

    @Test func everyRowIsAModelOfTheCatalog() {
        let known = CuffCatalog.models + CuffCatalog.families
        let strangers = Self.rows.filter { row in !known.contains { Self.row(of: $0)?.description == row.description } }
        #expect(strangers.isEmpty, "rows the catalog does not know: \(strangers)")
    }
}

extension CuffModel: CustomTestStringConvertible {
    public var testDescription: String { title }
}
