// placeholder during parallel work: replaced by the real file
typedef int wf_obstacles_placeholder;
