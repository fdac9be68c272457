/* volk from Debian's libvulkan-volk-dev, compiled into vkscan (with hidden
 * visibility in the shared library). */
#include <volk.c>
