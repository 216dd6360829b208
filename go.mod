module github.com/aliasplan/aliasplan

go 1.26

require (
	github.com/bits-and-blooms/bitset v1.29.0 // indirect
	github.com/goki/vulkan v1.0.8 // indirect
	github.com/google/btree v1.1.3 // indirect
	github.com/leanovate/gopter v0.2.11 // indirect
	github.com/rogpeppe/go-internal v1.16.0 // indirect
)
