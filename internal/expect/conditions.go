package expect

import (
	"fmt"
	"strings"
	"time"

	"github.com/drp2/drp2-fixtures/model"
)

// Conditions are the KEY=VALUE fields an entry may carry after its
// expectation. A list written before they existed has none, and reads as
// it always did.
type Conditions struct {
	// Platform is a glob over what runs the implementation
	// (model.GPUAdapter.Platform, "node 20.20.2, dawn"); "" for any.
	Platform string
	// Version is a glob over the version the implementation gave in its
	// hello; "" for any.
	Version string
	// Owner is who answers for the entry; only shown.
	Owner string
	// Expires is the day (YYYY-MM-DD) after which the entry is reported as
	// expired; "" for never. An expired entry still applies: a deadline
	// missed is a finding, not a red run nobody asked for.
	Expires string
}

// dateLayout is how an entry writes its expiry day.
const dateLayout = "2006-01-02"

// conditionKeys are the keys an entry may carry, in the order a roller
// writes them.
var conditionKeys = []string{"platform", "version", "owner", "expires"}

// field is where the condition key is kept.
func (c *Conditions) field(key string) *string {
	switch key {
	case "platform":
		return &c.Platform
	case "version":
		return &c.Version
	case "owner":
		return &c.Owner
	case "expires":
		return &c.Expires
	}
	return nil
}

// set reads one KEY=VALUE field, or says what is wrong with it.
func (c *Conditions) set(text string) string {
	key, value, ok := strings.Cut(text, "=")
	dst := c.field(key)
	switch {
	case !ok:
		return fmt.Sprintf("%q after the expectation: want KEY=VALUE, KEY one of %s", text, strings.Join(conditionKeys, ", "))
	case dst == nil:
		return fmt.Sprintf("unknown key %q: want one of %s", key, strings.Join(conditionKeys, ", "))
	case *dst != "":
		return fmt.Sprintf("%s is given twice", key)
	case value == "":
		return fmt.Sprintf("%s= has no value", key)
	}
	if key == "expires" {
		if _, err := time.Parse(dateLayout, value); err != nil {
			return fmt.Sprintf("expires=%s: want a day as YYYY-MM-DD", value)
		}
	}
	*dst = value
	return ""
}

// String is the conditions as an entry writes them: " key=value" for each
// one given, in conditionKeys order, a value quoted when it would not
// read back as itself.
func (c Conditions) String() string {
	var b strings.Builder
	for _, key := range conditionKeys {
		if v := *c.field(key); v != "" {
			b.WriteString(" " + key + "=" + quoteField(v))
		}
	}
	return b.String()
}

// ExpiredOn says whether the entry has expired on the day of now: its
// expiry day is before it.
func (c *Conditions) ExpiredOn(now time.Time) bool {
	if c.Expires == "" || now.IsZero() {
		return false
	}
	return c.Expires < now.UTC().Format(dateLayout)
}

// Target is what an entry is matched against: the implementation that ran
// a fixture, as its hello described it.
type Target struct {
	// Name is the implementation's name (model.Validator for the built-in
	// validator).
	Name    string
	Version string
	// Device is the adapter's description (model.GPUAdapter.Description).
	Device   string
	Platform string
}

// TargetOf is the target of the implementation im.
func TargetOf(im *model.Implementation) Target {
	t := Target{Name: im.Name, Version: im.Version, Device: im.Adapter.Description()}
	if im.Adapter != nil {
		t.Platform = im.Adapter.Platform
	}
	return t
}

// ValidatorTarget is the built-in validator's target.
var ValidatorTarget = Target{Name: model.Validator}

// applies says whether the entry is for target t.
func (e *Entry) applies(t Target) bool {
	switch {
	case e.Implementation != "*" && e.Implementation != t.Name:
		return false
	case e.Device != "" && !model.Glob(e.Device, t.Device):
		return false
	case e.Platform != "" && !model.Glob(e.Platform, t.Platform):
		return false
	}
	return e.Version == "" || model.Glob(e.Version, t.Version)
}

// FindingExpired is the finding of an entry whose expiry day has passed.
const FindingExpired model.FindingKind = "expectation_expired"

// expired is the finding of the expired entry e.
func expired(e *Entry) model.Finding {
	owner := ""
	if e.Owner != "" {
		owner = " (owner " + e.Owner + ")"
	}
	return model.Finding{Kind: FindingExpired, Path: e.Path, Message: fmt.Sprintf(
		"%s: expectation %s for %s expired on %s%s; fix the fixture's failure, or renew the entry's expires=", e.Where(), e.Expect, e.Path, e.Expires, owner)}
}
