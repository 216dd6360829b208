// Package proptest holds property tests, written with gopter, over random
// render graphs and random interval problems: every strategy's plan is
// verified, deterministic, within [lower bound, no-aliasing cost], and
// Verify catches injected faults. The generators live in gen.go so that
// benchmarks and other tests can reuse them.
//
// `make test` runs 2,000 cases per property (ALIASPLAN_PROPTEST_CASES
// overrides it; `make fuzz` runs far more). Each case is built from a
// seed, so a failure report names the seed that reproduces it.
package proptest
