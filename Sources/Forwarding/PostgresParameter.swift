/// One parameter of a statement, in the form PostgreSQL reads it (PostgreSQL 15 documentation §34.3.1, `PQexecParams`'
/// `paramFormats`): text, as a literal of its type would be written (nil is SQL NULL), or the type's binary form —
/// what its `recv` function reads (``PostgresArray/binary(_:)`` for arrays of numbers), which the server takes
/// without parsing text.
enum PostgresParameter: Sendable {
    case text(String?)
    case binary([UInt8])
}
