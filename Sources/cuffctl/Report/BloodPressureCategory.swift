/// Where an average stands in two guideline tables (docs/report.md gives the tables and their sources): shown as
/// a reference beside the numbers, never as a diagnosis.
enum BloodPressureCategory {
    /// 2017 ACC/AHA guideline, categories of blood pressure in adults; home readings are compared with the
    /// office thresholds' home equivalents the same guideline gives (130/80 for stage 1, 135/85 for stage 2).
    static func accAha2017(home systolic: Double, _ diastolic: Double) -> String {
        if systolic >= 135 || diastolic >= 85 { return "stage 2 hypertension range (home ≥ 135/85)" }
        if systolic >= 130 || diastolic >= 80 { return "stage 1 hypertension range (home ≥ 130/80)" }
        if systolic >= 120 { return "elevated (120–129 and < 80)" }
        return "normal (< 120/80)"
    }

    /// 2023 ESH guideline: hypertension by home blood pressure is an average of 135/85 mmHg or more.
    static func esh2023(home systolic: Double, _ diastolic: Double) -> String {
        systolic >= 135 || diastolic >= 85 ? "at or above the home threshold for hypertension (≥ 135/85)" : "below the home threshold for hypertension (< 135/85)"
    }
}
