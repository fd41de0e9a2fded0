/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bootprobe's subcommands (main.c's table), and the one way they refuse bad
 * arguments.  Exit status, every command: 0 done, 1 done and the result is
 * a failure, 2 a bad argument or input (usage_error(), a missing RUN).
 */
#ifndef BOOTPROBE_COMMANDS_H
#define BOOTPROBE_COMMANDS_H

int cmd_run(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_explain(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_timeline(int argc, char **argv);
int cmd_import(int argc, char **argv);
int cmd_merge(int argc, char **argv);

/*
 * "bootprobe CMD: MSG ARG (see bootprobe CMD --help)" on standard error;
 * returns 2, the exit status of a bad argument in every command.
 */
int usage_error(const char *cmd, const char *msg, const char *arg);

#endif
