//go:build !amd64

package ntuple

// vendor is empty where td2048 does not ask the processor.
const vendor = ""
