package jsonout

import (
	"fmt"
	"strconv"
	"strings"
)

// ReportVersion is the version of the JSON report this build writes,
// "MAJOR.MINOR" (docs/report.schema.json describes it). Add a member:
// the minor version goes up, and older readers keep reading. Change or
// remove one: the major version goes up, and readers of the old one
// refuse the report rather than misread it.
const ReportVersion = "1.3"

// reportMajor is the major version this build reads.
const reportMajor = 1

// checkVersion accepts a report of the major version this build reads,
// of any minor version: what a later minor version added is ignored. A
// report with no version was written before the member existed and is
// version 1.0.
func checkVersion(v *string) error {
	if v == nil {
		return nil
	}
	major, minor, ok := strings.Cut(*v, ".")
	m, err := strconv.Atoi(major)
	if !ok || err != nil || m < 0 || !isDigits(minor) || !isDigits(major) {
		return fmt.Errorf("report_version %q is not MAJOR.MINOR", *v)
	}
	if m != reportMajor {
		return fmt.Errorf("report_version %s: this drp2-fixtures (report version %s) reads version %d reports only; use a drp2-fixtures that reads version %d", *v, ReportVersion, reportMajor, m)
	}
	return nil
}

// versionOrNil is the report's version as read, nil when it has none: a
// report that names it names it non-empty, so an empty one is absent.
func (d *Document) versionOrNil() *string {
	if d.ReportVersion == "" {
		return nil
	}
	return &d.ReportVersion
}
