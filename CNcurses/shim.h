#ifndef CNCURSES_SHIM_H
#define CNCURSES_SHIM_H
// SwiftPM drops pkg-config's -D flags: without this define the wide-character API
// (wint_t, cchar_t, wget_wch, setcchar) is not declared.
#ifndef _XOPEN_SOURCE_EXTENDED
#define _XOPEN_SOURCE_EXTENDED 1
#endif
#include <locale.h>
#include <langinfo.h>
#include <wchar.h>
#include <ncursesw/curses.h>

// Attribute macros Swift does not import.
static inline attr_t cnc_a_normal(void) { return A_NORMAL; }
static inline attr_t cnc_a_bold(void) { return A_BOLD; }
static inline attr_t cnc_a_dim(void) { return A_DIM; }
static inline attr_t cnc_a_underline(void) { return A_UNDERLINE; }
static inline attr_t cnc_a_reverse(void) { return A_REVERSE; }
static inline int cnc_key_code_yes(void) { return KEY_CODE_YES; }
static inline int cnc_key_f(int n) { return KEY_F(n); }
static inline int cnc_ok(void) { return OK; }
static inline int cnc_err(void) { return ERR; }
// Sizes without the LINES/COLS globals (refused as shared mutable state in Swift 6).
static inline int cnc_maxy(WINDOW *w) { return getmaxy(w); }
static inline int cnc_maxx(WINDOW *w) { return getmaxx(w); }
static inline int cnc_colors(void) { return COLORS; }
static inline int cnc_color_pairs(void) { return COLOR_PAIRS; }
// The window size the kernel reports for a terminal (0 on success), for a SIGWINCH handled
// on the UI thread before resizeterm.
#include <sys/ioctl.h>
static inline int cnc_winsize(int fd, int *rows, int *cols) {
  struct winsize ws;
  if (ioctl(fd, TIOCGWINSZ, &ws) != 0) return -1;
  *rows = ws.ws_row;
  *cols = ws.ws_col;
  return 0;
}
// newterm on the process's stdout/stdin, made current; NULL when the terminal can't be used
// (unlike initscr, which exits the process). Swift 6 refuses the stdout/stdscr globals.
static inline WINDOW *cnc_open_terminal(void) {
  SCREEN *screen = newterm(NULL, stdout, stdin);
  if (screen == NULL) return NULL;
  set_term(screen);
  return stdscr;
}
// Mouse reports: clicks and the wheel (no drag), or none; shift-drag stays the terminal's.
static inline void cnc_mouse(int on) {
  mmask_t mask = on ? (BUTTON1_PRESSED | BUTTON4_PRESSED | BUTTON5_PRESSED) : 0;
  mousemask(mask, NULL);
  mouseinterval(0);
}
static inline int cnc_key_mouse(void) { return KEY_MOUSE; }
// The mouse event waiting: 1 a click, 4 wheel up, 5 wheel down, 0 another; -1 when none.
static inline int cnc_get_mouse(int *x, int *y) {
  MEVENT e;
  if (getmouse(&e) != OK) return -1;
  *x = e.x;
  *y = e.y;
  if (e.bstate & BUTTON1_PRESSED) return 1;
  if (e.bstate & BUTTON4_PRESSED) return 4;
  if (e.bstate & BUTTON5_PRESSED) return 5;
  return 0;
}
// Glibc's module hides wcwidth.
extern int wcwidth(wchar_t);
#endif
