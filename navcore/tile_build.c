// placeholder during parallel work: replaced by the real file
typedef int wf_tile_build_placeholder;
