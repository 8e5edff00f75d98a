// A straightforward C decoder of Blood Pressure Measurement 0x2A35 and Heart Rate Measurement 0x2A37,
// doing the checks GATTHealth does, as the yardstick of `Benchmarks/compare-decode`.
// Written from the spec tables in docs/reference/GATT-HEALTH.md §4 and §9.
#ifndef GATT_DECODE_H
#define GATT_DECODE_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
    uint8_t flags;
    uint16_t systolic, diastolic, mean_arterial_pressure;  // SFLOAT bit patterns, kept raw
    int has_time_stamp;
    uint16_t year;
    uint8_t month, day, hours, minutes, seconds;
    int has_pulse_rate;
    uint16_t pulse_rate;
    int has_user_id;
    uint8_t user_id;
    int has_status;
    uint16_t status;
    size_t trailing_bytes;
} bpm_value;

#define HRM_RR_CAPACITY 16

typedef struct {
    uint8_t flags;
    uint16_t heart_rate;
    int has_energy_expended;
    uint16_t energy_expended;
    int has_rr_intervals;
    uint16_t rr_intervals[HRM_RR_CAPACITY];
    size_t rr_count, rr_omitted;
    size_t trailing_bytes;
} hrm_value;

// 0 on success; -1 when the frame is shorter than its flags announce (nothing is read before that check).
int bpm_decode(const uint8_t *bytes, size_t count, bpm_value *out);
int hrm_decode(const uint8_t *bytes, size_t count, hrm_value *out);

#endif
