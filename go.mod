module github.com/aliasplan/aliasplan

go 1.26

require (
	github.com/chromedp/cdproto v0.160.1
	github.com/chromedp/chromedp v0.23.1
	github.com/goki/vulkan v1.0.8
	github.com/google/btree v1.1.3
	github.com/leanovate/gopter v0.2.11
	github.com/rogpeppe/go-internal v1.16.0
)

require (
	github.com/go-json-experiment/json v0.0.0-20260213210345-44df1a37e875 // indirect
	golang.org/x/sys v0.26.0 // indirect
	golang.org/x/tools v0.26.0 // indirect
)
