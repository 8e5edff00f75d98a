/// A one-dimensional array literal as PostgreSQL reads it in text form (PostgreSQL 15 documentation §8.15.6,
/// "Array Input and Output Syntax"): `{"a","b \"quoted\"",NULL}`. Every element is double-quoted, so that commas,
/// braces, spaces and the word NULL inside one stay text; `"` and `\` in it are escaped with a backslash; nil is
/// an unquoted NULL. Sent as one parameter and cast (`$1::text[]`, `$2::bigint[]`), it carries a whole column of a
/// batch in one statement.
enum PostgresArray {
    static func literal(_ elements: [String?]) -> String {
        var text = "{"
        for (index, element) in elements.enumerated() {
            if index > 0 { text += "," }
            guard let element else {
                text += "NULL"
                continue
            }
            text += "\""
            for character in element {
                if character == "\"" || character == "\\" { text += "\\" }
                text.append(character)
            }
            text += "\""
        }
        return text + "}"
    }
}
