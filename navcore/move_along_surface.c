// placeholder during parallel work: replaced by the real file
typedef int wf_move_along_surface_placeholder;
