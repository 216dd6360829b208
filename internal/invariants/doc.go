// Package invariants is the project's one switch for self-checks that cost
// more than the work they check: `go test -tags invariants` (make test,
// CI) turns Enabled on, and every package tests `if invariants.Enabled`
// before running its checkInvariants methods. Normal builds compile the
// checks out.
package invariants
