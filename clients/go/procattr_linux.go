//go:build linux

package spritzertest

import "syscall"

// procAttr puts the server in a process group of its own (so Stop reaches everything it started) and asks the
// kernel to send it SIGTERM if this test binary dies without stopping it.
func procAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGTERM}
}
