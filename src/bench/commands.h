/* One entry point per subcommand; each parses its own options (argv[0] is its name). */
#ifndef PST_COMMANDS_H
#define PST_COMMANDS_H

int pst_cmd_swap(int argc, char **argv);
int pst_cmd_pingpong(int argc, char **argv);
int pst_cmd_coll(int argc, char **argv);
int pst_cmd_match(int argc, char **argv);
int pst_cmd_model(int argc, char **argv);
int pst_cmd_kernel(int argc, char **argv);
int pst_cmd_schema(int argc, char **argv);

#endif
