@testable import Forwarding
import Testing

@Suite("Array literals")
struct PostgresArrayTests {
    @Test("Each element quoted, quotes and backslashes escaped, nil as NULL, the empty array as {}")
    func literals() {
        #expect(PostgresArray.literal([]) == "{}")
        #expect(PostgresArray.literal(["a", nil, "NULL", "x,y {z}"]) == #"{"a",NULL,"NULL","x,y {z}"}"#)
        #expect(PostgresArray.literal([#"say "hi" \ bye"#]) == #"{"say \"hi\" \\ bye"}"#)
    }
}
