//! Durations as the views show them, one way across the studio: "0m04s", "1h02m".

use std::time::Duration;

/// A duration to read at a glance: minutes and seconds, or hours and minutes past an hour.
pub fn duration(d: Duration) -> String {
    let s = d.as_secs();
    if s >= 3600 { format!("{}h{:02}m", s / 3600, (s / 60) % 60) } else { format!("{}m{:02}s", s / 60, s % 60) }
}

#[cfg(test)]
mod tests {
    use super::duration;
    use std::time::Duration;

    #[test]
    fn minutes_and_seconds_then_hours_and_minutes() {
        assert_eq!(duration(Duration::from_millis(4_400)), "0m04s");
        assert_eq!(duration(Duration::from_secs(200)), "3m20s");
        assert_eq!(duration(Duration::from_secs(3_720)), "1h02m");
    }
}
