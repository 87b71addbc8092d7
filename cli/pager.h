#ifndef DIRREPORT_CLI_PAGER_H
#define DIRREPORT_CLI_PAGER_H
/*
 * pager - long text output to a terminal goes through a pager, as perf and git do.
 *
 * The pager is the first of $DIRREPORT_PAGER and $PAGER that is set, else `less`
 * where it is installed; an empty value or `cat` means none.  It runs as `sh -c
 * PAGER` with LESS=FRX (quit when the text fits one screen, colours as they are, no
 * screen clearing) and LV=-c where those are not set, and starts once the first
 * bytes are written.  Standard output (and standard error where it is the terminal
 * too) then go into it; at exit, and on SIGINT, SIGHUP, SIGTERM and SIGQUIT, the
 * program closes them and waits for the pager to end.  When the pager goes first
 * (the user quit `less` before the end), the next write raises SIGPIPE and the
 * program ends at once with status 0, as git's does.
 *
 * Thread safety: cli__pager_start() from the main thread, before any other thread
 * starts (it forks, and installs handlers for the signals above).
 */
#include <stdbool.h>

/**
 * @brief Send standard output through the pager when it is a terminal.
 * @return true when a pager was started; false when standard output is not a
 *         terminal, no pager is wanted (see above) or the pager could not be
 *         started (the output then goes to the terminal as it is).
 * Thread safety: see the file comment.  Format: none.
 */
bool cli__pager_start(void);

/**
 * @brief Whether standard output went to a terminal when the program started (before
 *        cli__pager_start() made it the pager's pipe): what decides, for instance,
 *        whether a progress bar on standard error would run into the text.
 * Thread safety: main thread.  Format: none.
 */
bool cli__stdout_is_terminal(void);

#endif
