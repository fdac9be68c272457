/* volk from Debian's libvulkan-volk-dev, compiled into the benchmark: its own
 * function table for the device vkscan made. libvkscan.so keeps its copy of
 * volk hidden, so the two cannot clash. */
#include <volk.c>
