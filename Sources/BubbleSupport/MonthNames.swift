/// Month names: the tables the sample library writes dates with, and the one lookup that reads a
/// month from a word, for grouping titles by date and for keeping "March 2017" on one line.
public enum MonthNames {
    /// The English month names, January first (index 0 is month 1).
    public static let english = [
        "January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November",
        "December",
    ]

    /// The three-letter English abbreviations, `Jan` first (index 0 is month 1).
    public static let englishShort = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// The German month names, `Januar` first (index 0 is month 1).
    public static let german = [
        "Januar", "Februar", "März", "April", "Mai", "Juni", "Juli", "August", "September", "Oktober", "November",
        "Dezember",
    ]

    /// The month, 1 to 12, that `word` names, or nil: English and German full names, the English
    /// three-letter abbreviations and `Sept`, and the German `Jänner`, `Maerz`, `Okt` and `Dez`.
    /// Case-insensitive; the word must be the name alone (no trailing full stop or comma).
    public static func month(named word: some StringProtocol) -> Int? {
        lowerCased[word.lowercased()]
    }

    /// Every name `month(named:)` knows, lower-cased, with its month.
    public static let lowerCased: [String: Int] = {
        var table: [String: Int] = ["sept": 9, "jänner": 1, "maerz": 3, "okt": 10, "dez": 12]
        for names in [english, englishShort, german] {
            for (i, name) in names.enumerated() { table[name.lowercased()] = i + 1 }
        }
        return table
    }()
}
