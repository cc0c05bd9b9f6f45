module voiceplatform/launcher

go 1.22
