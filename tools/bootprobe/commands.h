/* SPDX-License-Identifier: GPL-2.0 */
/* bootprobe's subcommands, and the one way they refuse bad arguments. */
#ifndef BOOTPROBE_COMMANDS_H
#define BOOTPROBE_COMMANDS_H

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
