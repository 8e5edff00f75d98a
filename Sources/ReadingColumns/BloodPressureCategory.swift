/// Where a blood pressure stands in two guideline tables (docs/report.md gives the tables and their sources; docs/
/// home-assistant.md the one each reading is published with): shown as a reference beside the numbers, never as a
/// diagnosis. One place for the thresholds, which `cuffctl report` compares a week's average with and cuff-forward
/// each reading.
public enum BloodPressureCategory {
    /// 2017 ACC/AHA guideline, categories of blood pressure in adults; home readings are compared with the
    /// office thresholds' home equivalents the same guideline gives (130/80 for stage 1, 135/85 for stage 2).
    public static func accAha2017(home systolic: Double, _ diastolic: Double) -> String {
        if systolic >= 135 || diastolic >= 85 { return "stage 2 hypertension range (home ≥ 135/85)" }
        if systolic >= 130 || diastolic >= 80 { return "stage 1 hypertension range (home ≥ 130/80)" }
        if systolic >= 120 { return "elevated (120–129 and < 80)" }
        return "normal (< 120/80)"
    }

    /// The 2023 ESH guideline's home threshold: hypertension by home blood pressure is 135 mmHg systolic or 85 mmHg
    /// diastolic or more. Its cases' raw values are the states of the Home Assistant sensor.
    public enum ESH2023Home: String, CaseIterable, Sendable {
        case below = "below_135_85"
        case atOrAbove = "at_or_above_135_85"
    }

    public static func esh2023Home(_ systolic: Double, _ diastolic: Double) -> ESH2023Home {
        systolic >= 135 || diastolic >= 85 ? .atOrAbove : .below
    }

    /// ``esh2023Home(_:_:)`` in words.
    public static func esh2023(home systolic: Double, _ diastolic: Double) -> String {
        switch esh2023Home(systolic, diastolic) {
        case .atOrAbove: "at or above the home threshold for hypertension (≥ 135/85)"
        case .below: "below the home threshold for hypertension (< 135/85)"
        }
    }
}
