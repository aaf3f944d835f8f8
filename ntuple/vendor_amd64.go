package ntuple

// cpuid0 returns the vendor words of CPUID leaf 0 (EBX, ECX, EDX).
func cpuid0() (b, c, d uint32)

// vendor is the processor's CPUID vendor string, like "GenuineIntel" or
// "AuthenticAMD".
var vendor = func() string {
	b, c, d := cpuid0()
	var s [12]byte
	for i, w := range [3]uint32{b, d, c} {
		for j := range 4 {
			s[4*i+j] = byte(w >> (8 * j))
		}
	}
	return string(s[:])
}()
