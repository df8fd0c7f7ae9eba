// placeholder during parallel work: replaced by the real file
typedef int wf_obstacle_placeholder;
